/**
 * The one access decision for an article on a publisher's host, for the visitor the site
 * identified: what the page may show, the status, and the pay-per-crawl answer
 * (server/surfaces/landing/pay_per_crawl.ts). Folio's own pages render it (article.ts); the crawler
 * gate in front of a publisher's own site (gate.ts) turns it into allow or refuse. Nothing is
 * recorded unless a paid read is served.
 */
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";
import type { Context } from "hono";
import type { Article } from "../../../store/articles.ts";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { territoryOf } from "../../platform/identity.ts";
import type { Decision } from "../../domain/licensing/mod.ts";
import { peekArticle, readArticle, type ReadResult } from "../../domain/reads/read_article.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { CrawlerError, type PriceOffer, priceOffer, refusalOf } from "./pay_per_crawl.ts";
import { LicenseTokenError } from "../../domain/rsl/license_tokens.ts";
import { crawlTermsFor } from "./visitor.ts";
import { PAYMENT_SIGNATURE, paymentRequiredHeader, resourceUrlOf } from "../../domain/x402/load.ts";
import { payForRead } from "../../domain/x402/pay.ts";

/** What the decision lets this visitor have of the page. */
export interface PageAccess {
  status: 200 | 402 | 403 | 451;
  access: "full" | "teaser" | "blocked";
  decision: Decision;
  /** `crawler-price` of a plain 402 quote. */
  quoteMicros: number | null;
  /** `crawler-charged`: what this read was billed (a paid retry). */
  chargedMicros: number | null;
  /** The ledger entry of a paid read (its id names the charge, e.g. for a receipt). */
  charge: ReadResult["charge"];
  /** x402 (docs/decisions/x402.md): the 402's `PAYMENT-REQUIRED`, a paid read's `PAYMENT-RESPONSE`. */
  x402: { paymentRequired?: string; paymentResponse?: string; refused?: string } | null;
}

/**
 * Decides `article` for the visitor on `c.var` (after `identifyVisitor()`). Throws a
 * `CrawlerError` for a refusal the dialect words; a missing decision is null. `site` says who
 * answers the host (`crawlTermsFor()`).
 */
export async function pageAccess(
  deps: AppDeps,
  c: Context<PublishedEnv>,
  article: Article,
  site: "folio" | "origin" = "folio",
): Promise<PageAccess | null> {
  const access = await decidePage(deps, c, article, site);
  // A quote with x402 configured also says how to pay it on chain.
  if (access?.status === 402 && access.quoteMicros !== null && deps.config.x402 && !access.x402) {
    const header = await paymentRequiredHeader(deps, access.quoteMicros, resourceUrlOf(c.req.url));
    if (header) access.x402 = { paymentRequired: header };
  }
  return access;
}

async function decidePage(
  deps: AppDeps,
  c: Context<PublishedEnv>,
  article: Article,
  site: "folio" | "origin",
): Promise<PageAccess | null> {
  const publisher = c.get("publisher");
  const visitor = c.get("visitor")!;
  const license = visitor.license;
  if (license && license.articleId !== article.id) {
    throw new LicenseTokenError(
      "insufficient_scope",
      `The license token is for ${license.resource}, not this page: acquire one for it`,
    );
  }
  // A license pays by its own terms: up to its amount per read, no price header needed.
  const offer: PriceOffer | null = license
    ? { kind: "max", micros: license.amountMicros, header: "crawler-max-price" }
    : visitor.treatment === "crawler"
    ? priceOffer(c.req.raw.headers)
    : null;
  const caller: Caller = {
    identity: visitor.identity,
    buyerId: visitor.buyerId,
    territory: territoryOf(deps.config, c.req.raw.headers),
    surface: "landing",
    crawl: await crawlTermsFor(deps, publisher, visitor, article, site),
    license: license && { articleId: license.articleId, resource: license.resource },
  };
  const reads = {
    db: deps.store.db,
    clock: deps.clock,
    intents: deps.callLog,
    receipts: deps.receipts,
  };
  const req = { publisher, idOrUrl: article.id, article, caller, use: "display" as const };
  const { decision } = await peekArticle(reads, req);
  if (!decision) return null;
  const page = (
    status: PageAccess["status"],
    access: PageAccess["access"],
    d: Decision,
    money: { quote?: number; charge?: ReadResult["charge"]; x402?: PageAccess["x402"] } = {},
  ): PageAccess => ({
    status,
    access,
    decision: d,
    quoteMicros: money.quote ?? null,
    chargedMicros: money.charge?.micros ?? null,
    charge: money.charge ?? null,
    x402: money.x402 ?? null,
  });

  switch (decision.outcome) {
    case "blocked":
      // BLOCKED withholds the article from AI agents only: a person reads it (issue 29 item 9).
      if (visitor.action === "reader") return page(200, "full", decision);
      // Blocking is not about payment: a named crawler is told in the dialect even when pages are free.
      if (visitor.treatment === "crawler" || visitor.crawler) {
        throw new CrawlerError("CrawlerForbidden", decision.reason);
      }
      return page(403, "blocked", decision);
    case "territory_blocked":
      return page(451, "blocked", decision);
    case "license_denied":
      if (decision.capped && offer && offer.kind !== "none") {
        throw new CrawlerError("PaymentFailed", decision.reason);
      }
      return page(403, "blocked", decision);
    case "license_limited":
      if (decision.capped && offer && offer.kind !== "none") {
        throw new CrawlerError("PaymentFailed", decision.reason);
      }
      return page(200, "teaser", decision);
    case "paywall_upsell":
      return page(200, "teaser", decision);
    case "payment_overdue":
      // A suspended buyer: a person sees the teaser and why; a crawler is refused in the dialect.
      if (visitor.treatment === "reader") return page(402, "teaser", decision);
      throw new CrawlerError("PaymentFailed", `payment_overdue: ${decision.reason}`);
    case "payment_required": {
      // No buyer behind the request: a person sees the teaser; a crawler is quoted the price.
      if (visitor.treatment === "reader") return page(200, "teaser", decision);
      const payment = c.req.header(PAYMENT_SIGNATURE);
      if (payment !== undefined && deps.config.x402 && !license) {
        const paid = await payForRead({ ...reads, config: deps.config.x402, log: deps.log }, {
          publisher,
          article,
          caller,
          quote: decision.quote!,
          resourceUrl: resourceUrlOf(c.req.url),
          signature: payment,
        });
        if (paid.kind === "refused") {
          return page(402, "teaser", decision, {
            quote: decision.quote!.micros,
            x402: { paymentRequired: paid.paymentRequired ?? undefined, refused: paid.reason },
          });
        }
        // The call log and Traffic name the payer's account, like any buyer's read.
        c.set("identity", `buyer:${paid.buyerId}`);
        return page(200, "full", paid.read.decision!, {
          charge: paid.read.charge,
          x402: { paymentResponse: paid.paymentResponse },
        });
      }
      if (offer && offer.kind !== "none") {
        throw visitor.signature.kind === "verified"
          ? new CrawlerError(
            "PaymentFailed",
            `The key directory ${visitor.signature.agent} is not registered to a Folio buyer: register it in the buyer portal, or send a buyer key.`,
          )
          : new CrawlerError(
            "StrongAuthRequired",
            "A paid request needs a buyer credential: a Web Bot Auth signature from a registered key directory, or Authorization: Bearer <buyer key>.",
          );
      }
      return page(402, "teaser", decision, { quote: decision.quote!.micros });
    }
    case "full":
      break;
  }
  if (!decision.charge) return page(200, "full", decision);

  // A buyer and a priced page: it pays only what it offered, with a credential that covers it.
  if (visitor.treatment === "reader") return page(200, "teaser", decision);
  const refused = refusalOf(offer!, decision.charge.micros);
  if (refused) {
    // A plain first request is quoted as Cloudflare does: 402 and the price, no error code.
    if (offer!.kind === "none" && visitor.buyerId === null) {
      return page(402, "teaser", decision, { quote: decision.charge.micros });
    }
    throw refused;
  }
  if (
    visitor.via === "signature" && visitor.signature.kind === "verified" &&
    offer!.kind !== "none" && !visitor.signature.covered.includes(offer!.header)
  ) {
    throw new CrawlerError(
      "InvalidSignature",
      `${offer!.header} must be a covered component of the Web Bot Auth signature.`,
    );
  }
  const read = await readArticle(reads, {
    ...req,
    idempotencyKey: idempotencyKeyOf(c.req.header("idempotency-key")),
  });
  if (!read.decision || !read.charge) {
    // The cap or a budget was taken by another read between the look and the charge.
    throw new CrawlerError(
      "PaymentFailed",
      read.decision?.reason ?? "The charge did not go through.",
    );
  }
  return page(200, "full", read.decision, { charge: read.charge });
}
