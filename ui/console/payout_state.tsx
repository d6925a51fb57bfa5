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

/** The state beside its amount: a tag once paid, else its words. */
export function PayoutState(props: { state: MonthPayoutState }) {
  return props.state === "paid"
    ? <span class="tag ok">{PAYOUT_STATE_WORDS.paid}</span>
    : <span class="muted small">{PAYOUT_STATE_WORDS[props.state]}</span>;
}
