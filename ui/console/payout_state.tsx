/**
 * A month's payout state in words, the same on Earnings and Payouts (issue 42: a closed month said
 * "computed when the month closes" on one and "pending" on the other).
 */
import type { MonthPayoutState } from "../../server/domain/billing/earnings.ts";

/** Each state, as a publisher reads it. */
export const PAYOUT_STATE_WORDS: Record<MonthPayoutState, string> = {
  accruing: "accruing: the month is in progress",
  pending: "pending: the month is over, due and not paid yet",
  paid: "paid",
};

/** The state as a tag beside its amount. */
export function PayoutState(props: { state: MonthPayoutState }) {
  return (
    <span class={`tag ${props.state === "paid" ? "ok" : ""}`}>
      {PAYOUT_STATE_WORDS[props.state]}
    </span>
  );
}
