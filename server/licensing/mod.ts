/**
 * Licensing: the one access decision (docs/DESIGN.md §5) and the rights helpers search uses.
 *
 * @module
 */

import { effectiveRights } from "./decide.ts";
import type { ArticleFacts, PublisherTerms } from "./types.ts";

export { decide, effectiveRights } from "./decide.ts";
export { reasons, REQUEST_VIA } from "./reasons.ts";
export { articlePathname, matchRules, pathMatches } from "./rules.ts";
export type { RuleContext, RuleMatch } from "./rules.ts";
export type * from "./types.ts";

/**
 * Whether an article may appear in agent search at all: unchecking RAG retrieval removes it
 * (docs/SPEC.md "Content license") and BLOCKED articles are never shown. Content rules and territory
 * still apply per read through `decide()`.
 */
export function searchable(publisher: PublisherTerms, article: ArticleFacts): boolean {
  return article.policy !== "BLOCKED" && effectiveRights(publisher, article).rag;
}
