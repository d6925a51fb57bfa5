/**
 * A publisher withdraws a use from its default rights (docs/decisions/licensing.md "The rights
 * table"): current subscribers keep it to the end of the month they paid for, and their
 * subscription then ends, never billed again for a use it no longer grants; nobody can buy the use
 * anew (`purchasable()`). Licenses the publisher approved itself (enterprise, requests) keep their
 * uses for their term: the publisher granted those to the buyer, whatever its defaults.
 */
import type { Client } from "../../../store/db.ts";
import { endLicenseAt, subscriptionsCovering } from "../../../store/licenses.ts";
import { monthOf } from "../../platform/clock.ts";
import type { UseCase } from "../licensing/mod.ts";
import { monthStart, nextMonth } from "./months.ts";
import type { PaymentProcessor } from "./processor.ts";

/** Ends, at the end of the paid month, every subscription covering a withdrawn use; their count. */
export async function endWithdrawnSubscriptions(
  deps: { db: Client; processor: PaymentProcessor | null },
  publisherId: string,
  withdrawn: readonly UseCase[],
  options: { now: Date },
): Promise<number> {
  if (withdrawn.length === 0) return 0;
  const endsAt = monthStart(nextMonth(monthOf(options.now)));
  let ended = 0;
  for (const license of await subscriptionsCovering(deps.db, publisherId, withdrawn, options)) {
    // The processor first, as a buyer's own cancellation does (cancel.ts): it must not renew.
    if (license.processorSubscriptionId && deps.processor) {
      await deps.processor.cancelAtPeriodEnd(license.processorSubscriptionId);
    }
    if (await endLicenseAt(deps.db, license.buyerId, license.id, { endsAt, now: options.now })) {
      ended++;
    }
  }
  return ended;
}
