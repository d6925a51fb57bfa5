/**
 * RSL 1.0 usages (§3.4.1.1) from Folio's rights, and a crawler's terms by the publisher's default:
 * what license.xml states (server/surfaces/landing/rsl.ts) and what the OLP token endpoint matches
 * a requested license against (./olp.ts), so the two cannot disagree.
 *
 * @module
 */
import type { AgentPayments } from "../../../store/publishers.ts";
import type { CrawlTerms } from "../licensing/mod.ts";

export type Usage = "all" | "ai-all" | "ai-train" | "ai-input" | "ai-index" | "search";

/** The usages the publisher's rights permit with every read. */
export function permittedUsages(
  rights: { summarization: boolean; display: boolean; rag: boolean; fine_tuning: boolean },
): Usage[] {
  const usages: Usage[] = [];
  // ai-input: content given to a model at inference (full body, summary, retrieved passages).
  if (rights.display || rights.summarization || rights.rag) usages.push("ai-input");
  // ai-index and search: Folio's agent search and passage retrieval are decided as rag.
  if (rights.rag) usages.push("ai-index", "search");
  // fine_tuning granted by default (the rights table, docs/decisions/licensing.md): with the read.
  if (rights.fine_tuning) usages.push("ai-train");
  return usages;
}

/**
 * The terms a crawler gets by the publisher's default action, as the landing path gives them
 * (server/surfaces/landing/visitor.ts `crawlTermsFor`): charged for every page when agent payments
 * are on and the default is to charge; otherwise none.
 */
export function crawlTermsOf(
  payments: Pick<AgentPayments, "enabled" | "defaultAction" | "crawlerPriceMicros">,
): CrawlTerms | null {
  return payments.enabled && payments.defaultAction === "charge"
    ? { why: "charge", priceMicros: payments.crawlerPriceMicros }
    : null;
}
