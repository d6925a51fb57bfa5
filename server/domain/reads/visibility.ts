/**
 * Which decisions keep an article out of agent search and listings: results are metadata for
 * `rag`, so an article the caller may not use for rag at all is left out rather than shown and
 * refused (docs/SPEC.md "Publisher REST API": articles whose license denies rag are excluded).
 */
import type { Decision, Outcome } from "../licensing/mod.ts";

const HIDDEN: ReadonlySet<Outcome> = new Set(["territory_blocked", "blocked", "license_denied"]);

/** True when a rag decision lets the article appear in search results and listings. */
export function listable(decision: Decision): boolean {
  return !HIDDEN.has(decision.outcome);
}
