/**
 * What a publisher's agent-payment settings say for a known crawler: the landing path's answer
 * and the management API's listing of the crawler list both read it (docs/SPEC.md "Agent payments").
 */
import type { CrawlerAction, Publisher } from "../../../store/publishers.ts";
import type { KnownCrawler } from "./crawlers.ts";

/** The publisher's setting for a crawler of the list: its own, else the default for its class. */
export function settingFor(
  publisher: Pick<Publisher, "agentPayments">,
  crawler: KnownCrawler,
): CrawlerAction {
  const s = publisher.agentPayments;
  return s.crawlers[crawler.family] ??
    (crawler.class === "user" ? s.userFetchers : s.defaultAction);
}
