/**
 * Payouts due (issue 38 part 5; docs/decisions/billing.md "Payouts paid"). The basis is collected
 * money: a publisher is paid its share of what buyers actually paid. A payout's amount is the
 * publisher's collected share of every closed statement up to its month, less what batches hold for
 * its payouts up to that month and what its earlier payouts not yet batched are due, rounded down to
 * whole cents (a bank moves cents; the remainder and any money
 * collected late go with the next payout). Card-paid charges and credit notes carried by a buyer's
 * credit balance count as they stand; invoiced charges in proportion to what their invoice received
 * (payments and credit applied; all once paid, none once void). A payout is held, with its reason, when
 * the publisher gave no payee details, a dispute on its items is open, the operator put it under
 * review, an earlier payout of its is held, or nothing is due yet.
 */
import type { Executor } from "../../../store/db.ts";
import { payeesOf } from "../../../store/payees.ts";
import {
  batchedByMonth,
  invoicedTotalsUpTo,
  invoiceReceiptsUpTo,
  invoiceSharesUpTo,
  type PayoutListed,
  publishersWithOpenDisputes,
  unbatchedUpTo,
} from "../../../store/payouts.ts";
import {
  collectedShareMicros,
  subtractMicros,
  sumMicros,
  wholeCentsBelow,
} from "../../platform/money.ts";

/** Why a payout cannot be paid now. */
export type HoldCode =
  | "no_payee_details"
  | "dispute_open"
  | "under_review"
  | "earlier_payout_held"
  | "nothing_due";

/** A hold and the sentence the operator and the publisher read. */
export interface Hold {
  code: HoldCode;
  reason: string;
}

/** A payout not yet batched, with what it would pay now and what holds it. */
export interface PayoutDue {
  payout: PayoutListed;
  /** What a batch approved now would pay (collected basis, whole cents). */
  dueMicros: number;
  /** The publisher's collected share up to this month (before what batches hold). */
  collectedShareMicros: number;
  holds: Hold[];
}

/** Every payout up to `month` not yet in a batch, with its amount due and holds. */
export async function payoutsDue(db: Executor, month: string): Promise<PayoutDue[]> {
  const [unbatched, shares, totals, receipts, batched, disputed] = await Promise.all([
    unbatchedUpTo(db, month),
    invoiceSharesUpTo(db, month),
    invoicedTotalsUpTo(db, month),
    invoiceReceiptsUpTo(db, month),
    batchedByMonth(db),
    publishersWithOpenDisputes(db),
  ]);
  const invoiced = new Map(totals.map((t) => [`${t.buyerId}|${t.month}`, t.invoicedMicros]));
  const received = new Map(receipts.map((r) => [`${r.buyerId}|${r.month}`, r]));
  // What an invoice's invoiced part received: all when paid, none when void, else its payments
  // and the credit it applied; a statement without an invoice row (closed before migration 0060)
  // counts as paid, as it did before invoices recorded payments.
  const collectedOf = (buyerId: string, m: string, total: number) => {
    const r = received.get(`${buyerId}|${m}`);
    if (!r || r.state === "paid") return total;
    if (r.state === "void") return 0;
    return r.receivedMicros;
  };
  const payees = new Set(
    (await payeesOf(db, [...new Set(unbatched.map((p) => p.publisherId))])).map((p) =>
      p.publisherId
    ),
  );
  const collectedUpTo = (publisherId: string, upTo: string) =>
    sumMicros(
      shares.filter((s) => s.publisherId === publisherId && s.month <= upTo).map((s) => {
        const total = invoiced.get(`${s.buyerId}|${s.month}`) ?? 0;
        const prepaid = subtractMicros(s.shareMicros, s.invoicedShareMicros);
        const got = collectedOf(s.buyerId, s.month, total);
        return prepaid + collectedShareMicros(s.invoicedShareMicros, got, total);
      }),
    );
  const out: PayoutDue[] = [];
  const heldBefore = new Set<string>();
  const dueBefore = new Map<string, number>();
  // In month order per publisher (unbatchedUpTo's order): an earlier hold holds the later months,
  // and an earlier payout's due is not due again on a later one.
  for (const payout of unbatched) {
    const p = payout.publisherId;
    const collected = collectedUpTo(p, payout.month);
    const inBatches = sumMicros(
      batched.filter((b) => b.publisherId === p && b.month <= payout.month).map((b) => b.micros),
    );
    const before = dueBefore.get(p) ?? 0;
    const left = subtractMicros(subtractMicros(collected, inBatches), before);
    const dueMicros = left > 0 ? wholeCentsBelow(left) : 0;
    dueBefore.set(p, sumMicros([before, dueMicros]));
    const holds: Hold[] = [];
    if (!payees.has(p)) {
      holds.push({ code: "no_payee_details", reason: "The publisher has not said where to pay" });
    }
    if (disputed.has(p)) {
      holds.push({ code: "dispute_open", reason: "A dispute on the publisher's items is open" });
    }
    if (payout.reviewHold) {
      holds.push({ code: "under_review", reason: `Under review: ${payout.reviewHold}` });
    }
    if (heldBefore.has(p)) {
      holds.push({ code: "earlier_payout_held", reason: "An earlier payout of theirs is held" });
    }
    if (dueMicros <= 0) {
      holds.push({
        code: "nothing_due",
        reason: "Nothing collected to pay yet (buyers have not paid, or a later payout took it)",
      });
    }
    if (holds.some((h) => h.code !== "nothing_due")) heldBefore.add(p);
    out.push({ payout, dueMicros, collectedShareMicros: collected, holds });
  }
  return out;
}
