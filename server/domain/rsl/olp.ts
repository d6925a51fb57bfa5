/**
 * The RSL license server's token grant (Open License Protocol, docs/decisions/rsl.md): a buyer's
 * OLP client asks for a `<license>` to a `resource`; the license is matched against what the
 * publisher's license.xml states for that resource (the one decision, `peekArticle()`, for a
 * crawler on the publisher's default terms, and the usages its rights permit), and a token is
 * issued for exactly that resource. Nothing is charged here: each read under the token is.
 *
 * @module
 */
import { DOMParser } from "linkedom";
import { findPublisherByDomain, normaliseHost, type Publisher } from "../../../store/publishers.ts";
import type { Client } from "../../../store/db.ts";
import type { Clock } from "../../platform/clock.ts";
import { MICROS_PER_USD, usdDecimal } from "../../platform/money.ts";
import { randomBase62 } from "../../platform/secrets.ts";
import type { Receipts } from "../billing/receipts.ts";
import { peekArticle } from "../reads/read_article.ts";
import { siteArticle } from "../reads/site_article.ts";
import { issueLicenseToken, type LicenseGrant } from "./license_tokens.ts";
import { crawlTermsOf, permittedUsages } from "./usages.ts";

/** An RFC 6749 section 5.2 error of the token endpoint. */
export class OlpError extends Error {
  override name = "OlpError";
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unsupported_grant_type"
      | "invalid_target",
    message: string,
    readonly status: 400 | 401 | 429 = error === "invalid_client" ? 401 : 400,
  ) {
    super(message);
  }
}

/** What a `<license>` element asks for. */
export interface RequestedLicense {
  usages: string[];
  payment: { type: string; amountMicros: number | null; currency: string | null } | null;
}

const RSL_USAGES = new Set(["all", "ai-all", "ai-train", "ai-input", "ai-index", "search"]);

/** Reads the `<license>` (RSL 1.0 §3.4) a client sent; refuses what is not one. */
export function parseLicense(xml: string): RequestedLicense {
  let doc;
  try {
    doc = new DOMParser().parseFromString(xml, "text/xml");
  } catch {
    throw new OlpError("invalid_request", "license: not well-formed XML");
  }
  const root = doc.documentElement;
  const license = root?.localName === "license"
    ? root
    : root && [...root.getElementsByTagName("license")][0];
  if (!license) throw new OlpError("invalid_request", "license: no <license> element");
  const children = [...license.children];
  const usages = children
    .filter((e) => e.localName === "permits" && (e.getAttribute("type") ?? "usage") === "usage")
    .flatMap((e) => (e.textContent ?? "").trim().split(/\s+/).filter(Boolean));
  const unknown = usages.find((u) => !RSL_USAGES.has(u));
  if (unknown) throw new OlpError("invalid_request", `license: unknown usage ${unknown}`);
  const payment = children.find((e) => e.localName === "payment");
  let asked: RequestedLicense["payment"] = null;
  if (payment) {
    const amount = [...payment.children].find((e) => e.localName === "amount");
    asked = {
      type: payment.getAttribute("type") ?? "purchase",
      amountMicros: amount ? decimalMicros((amount.textContent ?? "").trim()) : null,
      currency: amount?.getAttribute("currency") ?? null,
    };
    if (amount && asked.amountMicros === null) {
      throw new OlpError("invalid_request", "license: payment amount is not a decimal amount");
    }
  }
  return { usages, payment: asked };
}

function decimalMicros(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text);
  return m ? Number(m[1]) * MICROS_PER_USD + Number((m[2] ?? "").padEnd(6, "0")) : null;
}

/** What the grant needs. */
export interface OlpDeps {
  db: Client;
  clock: Clock;
  receipts: Pick<Receipts, "signJwt">;
  /** The license server's URL: the token's `iss`. */
  issuer: string;
}

/**
 * Issues a license token to `client` for `resource` under the `<license>` it asked for, when that
 * license is one the publisher offers there; an OlpError (invalid_grant, invalid_target) otherwise.
 */
export async function grantLicense(
  deps: OlpDeps,
  client: { clientId: string; buyerId: string },
  input: { resource: string; license: string },
): Promise<{ token: string; expiresIn: number; grant: LicenseGrant }> {
  let url: URL;
  try {
    url = new URL(input.resource);
  } catch {
    throw new OlpError("invalid_target", "resource: not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new OlpError("invalid_target", "resource: not an http(s) URL");
  }
  url.hash = "";
  const publisher = await findPublisherByDomain(deps.db, normaliseHost(url.host));
  if (!publisher) {
    throw new OlpError("invalid_target", `resource: ${url.host} is no publisher Folio licenses`);
  }
  const asked = parseLicense(input.license);
  const offered = await offeredTerms(deps, publisher, client.buyerId, url);
  const usages = asked.usages.length ? asked.usages : ["ai-input"];
  const permitted = permittedUsages(publisher.rights) as string[];
  const beyond = usages.find((u) =>
    (u === "all" || u === "ai-all") ? true : !permitted.includes(u)
  );
  if (beyond) {
    throw new OlpError(
      "invalid_grant",
      `${publisher.name} does not license ${beyond} with a read: permitted are ${
        permitted.join(" ") || "none"
      }` + (beyond === "ai-train" ? " (training is licensed on an approved license request)" : ""),
    );
  }
  const p = asked.payment;
  let payment: LicenseGrant["payment"] = "free";
  let amountMicros = 0;
  if (offered.priceMicros > 0) {
    const stated = `crawl at USD ${usdDecimal(offered.priceMicros)}`;
    if (!p || p.type !== "crawl") {
      throw new OlpError("invalid_grant", `This resource is paid: request payment ${stated}`);
    }
    if (p.currency !== "USD" || p.amountMicros === null || p.amountMicros < offered.priceMicros) {
      throw new OlpError("invalid_grant", `The payment is below the terms: ${stated} per read`);
    }
    payment = "crawl";
    amountMicros = p.amountMicros;
  } else if (p && p.type !== "free" && p.type !== "crawl") {
    throw new OlpError(
      "invalid_grant",
      `Payment ${p.type} is not offered here: the resource is free`,
    );
  }
  const grant: LicenseGrant = {
    clientId: client.clientId,
    buyerId: client.buyerId,
    publisherId: publisher.id,
    resource: url.href,
    articleId: offered.articleId,
    payment,
    amountMicros,
    usages,
  };
  const issued = await issueLicenseToken(deps.receipts, grant, {
    issuer: deps.issuer,
    now: deps.clock.now(),
    jti: `lt_${randomBase62(20)}`,
  });
  return { ...issued, grant };
}

/** What a read of the resource costs this buyer as a crawler on the publisher's default terms. */
async function offeredTerms(
  deps: OlpDeps,
  publisher: Publisher,
  buyerId: string,
  url: URL,
): Promise<{ articleId: string; priceMicros: number }> {
  const article = await siteArticle(deps.db, publisher, url);
  const { decision } = await peekArticle(deps, {
    publisher,
    idOrUrl: article.id,
    article,
    use: "display",
    caller: {
      identity: `buyer:${buyerId}`,
      buyerId,
      territory: null,
      surface: "landing",
      crawl: crawlTermsOf(publisher.agentPayments),
    },
  });
  if (!decision) throw new OlpError("invalid_target", "resource: no such page");
  if (decision.outcome !== "full") {
    throw new OlpError("invalid_grant", decision.reason);
  }
  return { articleId: article.id, priceMicros: decision.charge?.micros ?? 0 };
}
