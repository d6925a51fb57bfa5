/** What the application is built from: everything with I/O is injected, so tests build it too. */
import type { SearchService } from "../search/mod.ts";
import type { Store } from "../store/db.ts";
import type { Buyer } from "../store/buyers.ts";
import type { BuyerSession } from "../store/buyer_sessions.ts";
import type { LiveSession } from "../store/sessions.ts";
import type { Publisher } from "../store/publishers.ts";
import type { Article } from "../store/articles.ts";
import type { KnownCrawler } from "./domain/crawlers/crawlers.ts";
import type { Visitor } from "./surfaces/landing/visitor.ts";
import type { CallLog } from "./platform/call_log.ts";
import type { Clock } from "./platform/clock.ts";
import type { GuardedFetcher } from "./domain/catalog/fetcher.ts";
import type { TxtResolver } from "./domain/catalog/dns.ts";
import type { Config } from "./platform/config.ts";
import type { CallRecord } from "./platform/envelope.ts";
import type { Credential } from "./platform/identity.ts";
import type { Logger } from "./platform/log.ts";
import type { Receipts } from "./domain/billing/receipts.ts";
import type { Extractor } from "./domain/catalog/extract_thread.ts";

/** The application's dependencies. */
export interface AppDeps {
  store: Store;
  config: Config;
  clock: Clock;
  log: Logger;
  callLog: CallLog;
  search: SearchService;
  fetcher: GuardedFetcher;
  /** DNS TXT lookups (custom domain proof, server/surfaces/manage/domains.ts). */
  resolveTxt: TxtResolver;
  /** Signs charge receipts and publishes their keys (server/domain/billing/receipts.ts). */
  receipts: Receipts;
  /** Extracts fetched pages on a thread of its own (server/domain/catalog/extract_thread.ts). */
  extractor: Extractor;
}

/** Hono's environment for every route: what middleware learned about the request. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The publisher the request is for (the envelope, or management authentication). */
    publisher: Publisher | null;
    /** The dashboard session a management request came with (null for a publisher key). */
    session: LiveSession | null;
    /** Set by the marketplace's buyer authentication. */
    buyer: Buyer | null;
    /** The buyer portal session a marketplace request came with (null for a buyer key). */
    buyerSession: BuyerSession | null;
    /** The verified credential of an agent surface's caller; null when it presented none. */
    credential: Credential | null;
    /** The caller's meter identity, for the decision and the call log (docs/DESIGN.md §4). */
    identity: string | null;
    /** What the call log writes for this request (server/platform/envelope.ts). */
    call: CallRecord | undefined;
    /** The site (server/surfaces/landing/): the crawler the User-Agent names, classified once. */
    crawler: KnownCrawler | null;
    /** The site's reader, identified once per page after the reach gate (`identifyVisitor()`). */
    visitor: Visitor | undefined;
    /** The site's path prefix: "" on a publisher's domain, "/read/<id>" on the platform. */
    siteBase: string | undefined;
    /** The article the site found by the path asked for: looked up once. */
    article: Article | undefined;
    /** A probe round's request (server/domain/status/probes.ts): answered, but not logged or metered. */
    probe: boolean;
  };
}
