/**
 * Licensing: the one access decision (docs/DESIGN.md §5), its words, and the reach gate.
 *
 * @module
 */

export { decide, rightsOf, type Terms, termsOf } from "./decide.ts";
export { reasons, REQUEST_VIA } from "./reasons.ts";
export {
  BUNDLE_USES,
  heldRights,
  type Holdings,
  mayHoldAny,
  publicRights,
  purchasable,
  rightOf,
  type RightSource,
  rightsWords,
  withdrawnUses,
} from "./rights.ts";
export { articlePathname, matchRules, pathMatches, withholdsAll } from "./rules.ts";
export type { RuleContext, RuleMatch } from "./rules.ts";
export type * from "./types.ts";
