/**
 * Who is reading a publisher's page and how the publisher treats it (docs/SPEC.md "Agent
 * payments"): a crawler named by its User-Agent (server/landing/crawlers.json), a buyer by its key
 * or by a Web Bot Auth signature from a key directory it registered, or a person. The publisher's
 * agent-payment settings turn that into an action; robots.txt can escalate a crawler per article.
 */
import type { Context } from "hono";
import type { CrawlerAction, Publisher } from "../../store/publishers.ts";
import { buyerOfSignatureAgent } from "../../store/signature_agents.ts";
import { robotsDisallows } from "../catalog/robots.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import type { CrawlTerms } from "../licensing/mod.ts";
import { classifyAgent, type KnownCrawler } from "./crawlers.ts";
import { CrawlerError } from "./pay_per_crawl.ts";
import { authenticateWebBotAuth } from "./signature_replay.ts";
import type { WebBotAuth } from "./web_bot_auth.ts";

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
  via: "key" | "signature" | null;
  signature: WebBotAuth;
  /** Meter and call-log identity: `buyer:`, `crawler:<family>`, `agent:<host>` or `ip:`. */
  identity: string;
}

/** Paid-retry headers of Cloudflare's pay-per-crawl dialect. */
export const PRICE_HEADERS = ["crawler-exact-price", "crawler-max-price"] as const;

/**
 * Identifies the visitor after the reach gate (which verified any buyer key). Throws a
 * `CrawlerError` for a bad signature or a crawler the publisher blocks.
 */
export async function identifyVisitor(deps: AppDeps, c: Context<AppEnv>): Promise<Visitor> {
  const publisher = c.get("publisher")!;
  const crawler = classifyAgent(c.req.header("user-agent"));
  // Verified and spent: a replayed signature neither pays nor identifies (signature_replay.ts).
  const signature = await authenticateWebBotAuth(deps, c.req.raw);
  if (signature.kind === "invalid") throw new CrawlerError(signature.code, signature.why);
  let buyerId = c.get("credential")?.buyerId ?? null;
  let via: Visitor["via"] = buyerId ? "key" : null;
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
  const offersToPay = PRICE_HEADERS.some((h) => c.req.header(h) !== undefined);
  const payments = publisher.agentPayments.enabled;
  return {
    crawler,
    action,
    treatment: payments && (action !== "reader" || offersToPay) ? "crawler" : "reader",
    buyerId,
    via,
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

/** The publisher's setting for a crawler of the list: its own, else the default for its class. */
export function settingFor(
  publisher: Pick<Publisher, "agentPayments">,
  crawler: KnownCrawler,
): Visitor["action"] {
  const s = publisher.agentPayments;
  return s.crawlers[crawler.family] ??
    (crawler.class === "user" ? s.userFetchers : s.defaultAction);
}

/**
 * A crawler's terms for one article: every page priced when the publisher charges it, or when the
 * origin's robots.txt disallows the article to it (docs/SPEC.md "Agent payments": it loses free
 * access). Readers and allowed crawlers the origin admits get none.
 */
export async function crawlTermsFor(
  deps: AppDeps,
  publisher: Publisher,
  visitor: Visitor,
  articleUrl: string,
): Promise<CrawlTerms | null> {
  if (visitor.treatment !== "crawler") return null;
  const priceMicros = publisher.agentPayments.crawlerPriceMicros;
  if (visitor.action === "charge") return { why: "charge", priceMicros };
  const url = robotsUrlOf(publisher, articleUrl);
  if (!visitor.crawler || !url) return null;
  const disallowed = await robotsDisallows(deps, publisher.id, url, visitor.crawler.robotsTokens);
  return disallowed ? { why: "robots", priceMicros } : null;
}

/** The URL robots.txt is asked about: the article's path at the publisher's robots origin. */
function robotsUrlOf(
  publisher: Pick<Publisher, "robotsOrigin">,
  articleUrl: string,
): string | null {
  let u: URL;
  try {
    u = new URL(articleUrl);
  } catch {
    return null; // a book chapter: never on the origin
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  return publisher.robotsOrigin ? `${publisher.robotsOrigin}${u.pathname}${u.search}` : u.href;
}
