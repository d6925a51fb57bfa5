/**
 * Where the payout computation learns what buyers paid and which publishers have a dispute open
 * (docs/decisions/billing.md "Payouts paid"): the one place every payout route takes them from.
 */
import type { DueSources } from "./payouts_due.ts";

/** The sources of the collected basis and the dispute holds. */
export function dueSources(): DueSources {
  return {};
}
