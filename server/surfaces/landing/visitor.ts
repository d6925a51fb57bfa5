/**
 * Who is reading a publisher's page and how the publisher treats it (docs/SPEC.md "Agent
 * payments"): a crawler named by its User-Agent (server/domain/crawlers/crawlers.json), a buyer by its key
 * or by a Web Bot Auth signature from a key directory it registered, or a person. The publisher's
 * agent-payment settings turn that into an action; robots.txt can escalate a crawler per article.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Article } from "../../../store/articles.ts";
import { type CrawlerAction, normaliseHost, type Publisher } from "../../../store/publishers.ts";
import { buyerOfSignatureAgent } from "../../../store/signature_agents.ts";
import { storedRobotsVerdict } from "../../domain/catalog/robots.ts";
import type { AppDeps } from "../../deps.ts";
import { gate, type PublishedEnv } from "../../platform/envelope.ts";
import { clientAddress } from "../../platform/throttle.ts";
import type { CrawlTerms } from "../../domain/licensing/mod.ts";
import type { KnownCrawler } from "../../domain/crawlers/crawlers.ts";
import { settingFor } from "../../domain/crawlers/setting.ts";
import { CrawlerError } from "./pay_per_crawl.ts";
import { authenticateWebBotAuth } from "../../domain/crawlers/signature_replay.ts";
import type { WebBotAuth } from "../../domain/crawlers/web_bot_auth.ts";
import type { LicenseGrant } from "../../domain/rsl/license_tokens.ts";
import { crawlTermsOf } from "../../domain/rsl/usages.ts";
import { PAYMENT_SIGNATURE } from "../../domain/x402/load.ts";

/** A page's visitor, as the landing path answers it. */
export interface Visitor {
  crawler: KnownCrawler | null;
  /** What the publisher's settings say for this visitor; `reader` is a person's treatment. */
  action: "reader" | CrawlerAction;
  /**
   * `crawler`: pay-per-crawl applies (HTTP 402 with a price, paid retries); `reader`: paywalled
   * pages show their teaser and how to license, as to a person.
   */
  treatment: "reader" | "crawler";
  /** The buyer billed: a buyer key's owner, or the buyer that registered the signing directory. */
  buyerId: string | null;
  via: "key" | "signature" | "license" | null;
  /** What an RSL license token grants this visitor (docs/decisions/rsl.md); null without one. */
  license: LicenseGrant | null;
  signature: WebBotAuth;
  /** Meter and call-log identity: `buyer:`, `crawler:<family>`, `agent:<host>` or `ip:`. */
  identity: string;
}

/**
 * The reach gate of the publisher's pages, the crawler gate's included: a named crawler is
 * metered as its family, anyone else by address.
 */
export function siteReach(deps: AppDeps): MiddlewareHandler<PublishedEnv> {
  return gate(deps, "landing", (c) => {
    const crawler = c.get("crawler");
    return crawler ? `crawler:${crawler.family}` : `ip:${clientAddress(c)}`;
  });
}

/** Who is reading, once per request (it may refuse a bad signature or a blocked crawler). */
export function visitorIdentified(deps: AppDeps): MiddlewareHandler<PublishedEnv> {
  return async (c, next) => {
    c.set("visitor", await identifyVisitor(deps, c));
    await next();
  };
}

/** Paid-retry headers of Cloudflare's pay-per-crawl dialect. */
export const PRICE_HEADERS = ["crawler-exact-price", "crawler-max-price"] as const;

/**
 * Identifies the visitor after the reach gate (which verified any buyer key). Throws a
 * `CrawlerError` for a bad signature or a crawler the publisher blocks.
 */
export async function identifyVisitor(
  deps: AppDeps,
  c: Context<PublishedEnv>,
): Promise<Visitor> {
  const publisher = c.get("publisher");
  const crawler = c.get("crawler");
  // Verified and spent: a replayed signature neither pays nor identifies (signature_replay.ts).
  const signature = await authenticateWebBotAuth(deps, c.req.raw);
  if (signature.kind === "invalid") throw new CrawlerError(signature.code, signature.why);
  const credential = c.get("credential");
  const license = credential?.license ?? null;
  let buyerId = credential?.buyerId ?? null;
  let via: Visitor["via"] = license ? "license" : buyerId ? "key" : null;
  if (!buyerId && signature.kind === "verified") {
    buyerId = await buyerOfSignatureAgent(deps.store.db, signature.agent);
    via = buyerId ? "signature" : null;
  }
  const action = actionFor(publisher, crawler, buyerId !== null || signature.kind === "verified");
  if (action === "block") {
    throw new CrawlerError(
      "CrawlerForbidden",
      `${publisher.name} does not admit ${crawler?.family ?? "this crawler"} on its pages.`,
    );
  }
  // An x402 payment is an offer to pay too (docs/decisions/x402.md).
  const offersToPay = PRICE_HEADERS.some((h) => c.req.header(h) !== undefined) ||
    (deps.config.x402 !== null && c.req.header(PAYMENT_SIGNATURE) !== undefined);
  const payments = publisher.agentPayments.enabled;
  return {
    crawler,
    action,
    // A licensed crawler reads by its license's terms, payments on or off.
    treatment: license || (payments && (action !== "reader" || offersToPay)) ? "crawler" : "reader",
    buyerId,
    via,
    license,
    signature,
    identity: buyerId
      ? `buyer:${buyerId}`
      : crawler
      ? `crawler:${crawler.family}`
      : signature.kind === "verified"
      ? `agent:${new URL(signature.agent).host}`
      : c.get("identity")!,
  };
}

/**
 * The publisher's action for a visitor: its setting for the crawler's family, else its default for
 * crawlers or for user-initiated fetchers; anyone else who identifies itself (a key, a signature)
 * is an agent served by the policy, and an unnamed visitor is a reader.
 */
function actionFor(
  publisher: Pick<Publisher, "agentPayments">,
  crawler: KnownCrawler | null,
  identified: boolean,
): Visitor["action"] {
  if (crawler) return settingFor(publisher, crawler);
  return identified ? "allow" : "reader";
}

/**
 * A crawler's terms for one article: every page priced when the publisher charges it, or when the
 * origin's robots.txt does not admit the crawler to the article (docs/SPEC.md "Agent payments": it
 * loses free access). That includes an origin whose robots.txt is not known yet or failed to
 * answer: escalation fails closed (RFC 9309 section 2.3.1.4). Readers get none. `site` says who
 * answers the publisher's host: Folio's pages, or the publisher's own origin behind the crawler
 * gate, whose robots.txt is then the origin's.
 */
export async function crawlTermsFor(
  deps: AppDeps,
  publisher: Publisher,
  visitor: Visitor,
  article: Pick<Article, "url" | "kind">,
  site: "folio" | "origin" = "folio",
): Promise<CrawlTerms | null> {
  if (visitor.treatment !== "crawler") return null;
  // The terms the license server matched the license against (server/domain/rsl/olp.ts).
  if (visitor.license) return crawlTermsOf(publisher.agentPayments);
  const priceMicros = publisher.agentPayments.crawlerPriceMicros;
  if (visitor.action === "charge") return { why: "charge", priceMicros };
  const url = robotsUrlOf(deps, publisher, article, site);
  if (!visitor.crawler || !url) return null;
  const verdict = await storedRobotsVerdict(deps, publisher.id, url, visitor.crawler.robotsTokens);
  return verdict.allowed ? null : { why: "robots", priceMicros };
}

/**
 * The URL robots.txt is asked about: the article's path at the publisher's robots origin when it
 * set one, else the article's own URL. None for a book chapter (it only lives on the host) or, when
 * Folio answers the host, an article whose URL is on it: that robots.txt is Folio's own, written
 * from the very settings `identifyVisitor()` already applied (robots_txt.ts).
 */
function robotsUrlOf(
  deps: Pick<AppDeps, "config">,
  publisher: Pick<Publisher, "robotsOrigin" | "customDomain">,
  article: Pick<Article, "url" | "kind">,
  site: "folio" | "origin",
): string | null {
  if (article.kind === "chapter") return null;
  let u: URL;
  try {
    u = new URL(article.url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  if (publisher.robotsOrigin) return `${publisher.robotsOrigin}${u.pathname}${u.search}`;
  if (site === "origin") return u.href;
  const ownDomain = publisher.customDomain !== null &&
    normaliseHost(publisher.customDomain) === normaliseHost(u.hostname);
  return ownDomain || u.host === new URL(deps.config.baseUrl).host ? null : u.href;
}
