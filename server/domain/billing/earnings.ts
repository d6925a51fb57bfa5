/**
 * A publisher's earnings (docs/SPEC.md "Agent payments": the publisher keeps its own price, paid out
 * monthly; the 4.7% fee is the platform's), per statement month, with its payout. One definition
 * for every page that shows them (docs/decisions/billing.md "One rounding rule"): a month's
 * earnings are the publisher's prices on that month's statements (metered reads, landing-page
 * payments, license fees, less credit notes), summed in micro-dollars and rounded once to the cent;
 * the parts are split to the cent so they add up to it.
 */
import { earningsByMonth } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import { listPayouts, type Payout } from "../../../store/payouts.ts";
import { monthOf } from "../../platform/clock.ts";
import { microsToWholeCents, splitCents, sumMicros } from "../../platform/money.ts";

/**
 * Where a month's payout stands, the same on Earnings and Payouts: `accruing` while the month is
 * in progress, `pending` once it is over (due, not paid yet: computed at the close, the sum of the
 * month's prices until then), `paid`.
 */
export type MonthPayoutState = "accruing" | "pending" | "paid";

/** A month's payout: its state and amount in micros (the stored payout once computed). */
export function monthPayout(
  month: string,
  stored: Pick<Payout, "state" | "amountMicros"> | undefined,
  earnedMicros: number,
  now: Date,
): { state: MonthPayoutState; amountMicros: number } {
  if (stored) return { state: stored.state, amountMicros: stored.amountMicros };
  return { state: month >= monthOf(now) ? "accruing" : "pending", amountMicros: earnedMicros };
}

const PARTS = ["metered", "landing", "subscription", "adjustment"] as const;

/** Earnings of the last `months` statement months, newest first. */
export async function publisherEarnings(
  db: Client,
  publisherId: string,
  options: { months: number; now: Date },
) {
  const [rows, payouts] = await Promise.all([
    earningsByMonth(db, publisherId, { limit: options.months }),
    listPayouts(db, publisherId, { limit: options.months * 2 }),
  ]);
  const months = [...new Set(rows.map((r) => r.month))];
  return {
    currency: "usd",
    months: months.map((month) => {
      const inMonth = rows.filter((r) => r.month === month);
      const of = (kind: string) =>
        sumMicros(inMonth.filter((r) => r.kind === kind).map((r) => r.priceMicros));
      const earned = sumMicros(inMonth.map((r) => r.priceMicros));
      const [metered, landing, subscription, adjustment] = splitCents(PARTS.map(of));
      const payout = monthPayout(
        month,
        payouts.find((p) => p.month === month),
        earned,
        options.now,
      );
      return {
        month,
        meteredUsdCents: metered,
        landingUsdCents: landing,
        subscriptionUsdCents: subscription,
        adjustmentsUsdCents: adjustment,
        earningsUsdCents: microsToWholeCents(earned),
        platformFeesUsdCents: microsToWholeCents(sumMicros(inMonth.map((r) => r.feeMicros))),
        chargedReads: inMonth.filter((r) => r.kind === "metered" || r.kind === "landing")
          .reduce((t, r) => t + r.count, 0),
        payout: { state: payout.state, amountUsdCents: microsToWholeCents(payout.amountMicros) },
      };
    }),
  };
}
