/**
 * The crawler gate (issue 33; docs/decisions/crawler-gate.md): the landing path's own decision for
 * a request that the publisher's origin, not Folio, will answer. The gate runs the site's envelope
 * (call log, reach gate, visitor) on the original request and answers allow (200, with
 * `crawler-charged` when the read was paid) or the landing path's refusal: Cloudflare's 402
 * dialect with the RSL `Link`, or 403. The forward-auth endpoint (gate_routes.ts) and the
 * reverse-proxy mode (origin_proxy.ts) both ask it.
 */
import { type Context, Hono } from "hono";
import { siteArticle } from "../../domain/reads/site_article.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import { classifyAgent } from "../../domain/crawlers/crawlers.ts";
import { callLogged, type PublishedEnv } from "../../platform/envelope.ts";
import { pageAccess } from "./access.ts";
import { formatCrawlerPrice } from "./crawler_price.ts";
import { landingError } from "./errors.ts";
import { LICENSE_REQUIRED, licenseLink } from "./rsl.ts";
import { siteReach, visitorIdentified } from "./visitor.ts";
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE } from "../../domain/x402/load.ts";

/** Call-log tool names: which door the request came through. */
export type GateTool = "_gate:nginx" | "_gate:forward_auth" | "_proxy:origin";

/** What the gate's caller hands it with the original request. */
export interface GateCall {
  publisher: Publisher;
  requestId: string;
  /** The client's address as the proxy saw it (X-Forwarded-For), else the proxy's. */
  remoteAddr: Deno.Addr | undefined;
}

/**
 * A Folio credential: a buyer key presented as a bearer token, or an RSL license token
 * (`License <token>`, docs/decisions/rsl.md) (server/platform/identity.ts).
 */
export const FOLIO_KEY = /^\s*(?:Bearer\s+mk_|License\b)/i;

/**
 * The request the gate decides on: the client's, without an Authorization that is not a Folio
 * credential (a buyer key or a license token). The origin's own credentials (Basic auth, its API's tokens) are the origin's
 * business, and the proxy passes them on untouched.
 */
export function gateRequest(url: URL | string, method: string, headers: Headers): Request {
  const own = new Headers(headers);
  if (own.has("authorization") && !FOLIO_KEY.test(own.get("authorization")!)) {
    own.delete("authorization");
  }
  return new Request(url, { method, headers: own });
}

/** The answer header that carries a paid read's price to the proxy. */
export const CHARGED = "crawler-charged";
/** The signed receipt of a paid read, passed on to the client like `crawler-charged`. */
export const RECEIPT = "Folio-Receipt";

/**
 * Paths free to every visitor, as on Folio's own pages: what they say is what the rest costs,
 * and `/.well-known/` holds the documents clients need first (Web Bot Auth directories too).
 */
function freePath(path: string): boolean {
  return path === "/robots.txt" || path === "/license.xml" || path.startsWith("/.well-known/");
}

/** The decision app for one door; fetch it with the original request and `gateEnv()`. */
export function gateApp(deps: AppDeps, tool: GateTool): Hono<PublishedEnv> {
  const app = new Hono<PublishedEnv>();
  app.use(async (c, next) => {
    const call = (c.env as { folioGate: GateCall }).folioGate;
    c.set("requestId", call.requestId);
    c.set("publisher", call.publisher);
    c.set("crawler", classifyAgent(c.req.header("user-agent")));
    await next();
  });
  app.onError(landingError(deps));
  app.all(
    "*",
    callLogged(deps, "landing", { tools: [tool] }),
    async (c, next) => {
      if (freePath(new URL(c.req.url).pathname)) return allow(c, null);
      await next();
    },
    siteReach(deps),
    visitorIdentified(deps),
    (c) => decide(deps, c),
  );
  return app;
}

/** The env `gateApp()` is fetched with: Deno's serve info shape plus the call. */
export function gateEnv(call: GateCall): unknown {
  return { remoteAddr: call.remoteAddr, folioGate: call };
}

async function decide(deps: AppDeps, c: Context<PublishedEnv>): Promise<Response> {
  const visitor = c.get("visitor")!;
  // A person passes at once, with no lookup: the gate withholds nothing from people.
  if (visitor.action === "reader" && visitor.treatment === "reader") return allow(c, null);
  const publisher = c.get("publisher");
  const url = new URL(c.req.url);
  // The URL Folio ingested or its canonical one (a query may name the page: ?p=123), else the
  // path of the canonical URL, else a page Folio never saw.
  const article = await siteArticle(deps.store.db, publisher, url);
  c.set("article", article);
  const access = await pageAccess(deps, c, article, "origin");
  if (!access) return allow(c, null);
  if (access.status === 200 && access.access === "full") {
    if (access.x402?.paymentResponse) c.header(PAYMENT_RESPONSE, access.x402.paymentResponse);
    return allow(c, access.chargedMicros, access.charge?.receipt ?? null);
  }
  c.header("Link", licenseLink(`${url.origin}/license.xml`));
  c.header("Cache-Control", "no-store");
  if (access.decision.outcome === "payment_overdue") {
    return c.text(`payment_overdue: ${access.decision.reason}\n`, 402);
  }
  if (access.status === 402) {
    c.header("crawler-price", formatCrawlerPrice(access.quoteMicros!));
    c.header("WWW-Authenticate", LICENSE_REQUIRED);
    if (access.x402?.paymentRequired) c.header(PAYMENT_REQUIRED, access.x402.paymentRequired);
    if (access.x402?.refused) return c.text(`${access.x402.refused}\n`, 402);
    return c.text(
      `This page is paid: retry with crawler-exact-price or crawler-max-price and a buyer credential${
        access.x402?.paymentRequired ? ", or pay with x402 (PAYMENT-REQUIRED)" : ""
      }. ${access.decision.reason}\n`,
      402,
    );
  }
  // A teaser is not the origin's to cut: the whole page is withheld instead.
  const why = access.access === "teaser"
    ? `${publisher.name} licenses this page to AI agents through Folio's API, not on its site. ${access.decision.reason}`
    : access.decision.reason;
  return c.text(`${why}\n`, access.status === 451 ? 451 : 403);
}

function allow(
  c: Context<PublishedEnv>,
  chargedMicros: number | null,
  receipt: string | null = null,
): Response {
  if (chargedMicros !== null) c.header(CHARGED, formatCrawlerPrice(chargedMicros));
  if (receipt) c.header(RECEIPT, receipt);
  c.header("Cache-Control", "no-store");
  return c.body(null, 200);
}
