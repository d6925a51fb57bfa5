/** Payouts as publishers and the operator read them: state, amount, holds, date and reference. */
import type { Executor } from "../../../store/db.ts";
import { listPayouts, type Payout } from "../../../store/payouts.ts";
import { type Hold, payoutsDue } from "./payouts_due.ts";

/** A payout's stage and what it pays. */
export interface PayoutView {
  id: string;
  month: string;
  earnedUsdMicros: number;
  state: "held" | "due" | "approved" | "paid";
  amountUsdMicros: number;
  holds: Hold[];
  paidAt: string | null;
  reference: string | null;
}

/** One payout's view, given its due computation (null once batched). */
export function payoutView(
  p: Payout,
  due: { dueMicros: number; holds: Hold[] } | null,
): PayoutView {
  const state = p.state === "paid"
    ? "paid"
    : p.batchId
    ? "approved"
    : due && due.holds.length === 0
    ? "due"
    : "held";
  return {
    id: p.id,
    month: p.month,
    earnedUsdMicros: p.amountMicros,
    state,
    amountUsdMicros: p.batchId ? p.paidMicros ?? 0 : due?.dueMicros ?? 0,
    holds: p.batchId ? [] : due?.holds ?? [],
    paidAt: p.paidAt === null ? null : new Date(p.paidAt).toISOString(),
    reference: p.reference,
  };
}

/** The publisher's payouts, newest month first, with holds and amounts as of now. */
export async function publisherPayouts(
  db: Executor,
  publisherId: string,
  options: { upTo: string; limit: number },
): Promise<PayoutView[]> {
  const [rows, due] = await Promise.all([
    listPayouts(db, publisherId, { limit: options.limit }),
    payoutsDue(db, options.upTo),
  ]);
  const dueOf = new Map(due.map((d) => [d.payout.id, d]));
  return rows.map((p) => payoutView(p, dueOf.get(p.id) ?? null));
}
