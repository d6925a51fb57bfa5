/**
 * A publisher's earnings (docs/SPEC.md "Agent payments": the publisher keeps its own price, paid out
 * monthly; the 4.7% fee is the platform's), per statement month, with the payout once computed.
 */
import { earningsByMonth } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import { listPayouts } from "../../../store/payouts.ts";
import { microsToWholeCents, sumMicros } from "../../platform/money.ts";

/** Earnings of the last `months` statement months, newest first. */
export async function publisherEarnings(
  db: Client,
  publisherId: string,
  options: { months: number },
) {
  const [rows, payouts] = await Promise.all([
    earningsByMonth(db, publisherId, { limit: options.months }),
    listPayouts(db, publisherId, { limit: options.months * 2 }),
  ]);
  const months = [...new Set(rows.map((r) => r.month))];
  return {
    currency: "usd",
    months: months.map((month) => {
      const of = (kind: string) =>
        sumMicros(
          rows.filter((r) => r.month === month && r.kind === kind).map((r) => r.priceMicros),
        );
      const inMonth = rows.filter((r) => r.month === month);
      const earned = sumMicros(inMonth.map((r) => r.priceMicros));
      const fees = sumMicros(inMonth.map((r) => r.feeMicros));
      const payout = payouts.find((p) => p.month === month);
      return {
        month,
        meteredUsdCents: microsToWholeCents(of("metered")),
        landingUsdCents: microsToWholeCents(of("landing")),
        subscriptionUsdCents: microsToWholeCents(of("subscription")),
        earningsUsdCents: microsToWholeCents(earned),
        platformFeesUsdCents: microsToWholeCents(fees),
        chargedReads: inMonth.filter((r) => r.kind === "metered" || r.kind === "landing")
          .reduce((t, r) => t + r.count, 0),
        payout: payout
          ? { state: payout.state, amountUsdCents: microsToWholeCents(payout.amountMicros) }
          : null,
      };
    }),
  };
}
