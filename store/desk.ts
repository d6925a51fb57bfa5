/**
 * The operator's desk figures per statement month (issue 38 part 6): sums over the ledger, the
 * invoices (migration 0060), credit notes (0065) and payouts (0070), in micro-dollars.
 */
import type { Executor } from "./db.ts";

/** One month's money. */
export interface DeskRow {
  billedMicros: number;
  pricesMicros: number;
  platformFeesMicros: number;
  prepaidMicros: number;
  /** Invoiced money of statements closed before invoices recorded payments (counted collected). */
  untrackedMicros: number;
  paidOnInvoicesMicros: number;
  creditAppliedMicros: number;
  outstandingMicros: number;
  overdueMicros: number;
  voidMicros: number;
  uncollectibleMicros: number;
  invoices: number;
  creditedMicros: number;
  creditNotes: number;
  payoutsEarnedMicros: number;
  payoutsBatchedMicros: number;
  payoutsPaidMicros: number;
  payouts: number;
}

/** The desk's figures of `month` (statement month), overdue as of `nowMs`. */
export async function deskRow(db: Executor, month: string, nowMs: number): Promise<DeskRow> {
  const n = (v: unknown) => Number(v ?? 0);
  const [ledger, untracked, invoices, notes, payouts] = await Promise.all([
    db.execute({
      sql: `SELECT SUM(price_micros + fee_micros) AS billed, SUM(price_micros) AS prices,
              SUM(fee_micros) AS fees,
              SUM(CASE WHEN paid_via IS NOT NULL THEN price_micros + fee_micros ELSE 0 END) AS prepaid
            FROM charges WHERE statement_month = ? AND credit_via IS NOT 'balance'`,
      args: [month],
    }),
    db.execute({
      sql: `SELECT SUM(c.price_micros + c.fee_micros) AS t FROM charges c
            JOIN statements s ON s.buyer_id = c.buyer_id AND s.month = c.statement_month
              AND s.state = 'closed'
            WHERE c.statement_month = ? AND c.paid_via IS NULL AND c.credit_via IS NOT 'balance'
              AND NOT EXISTS (SELECT 1 FROM invoices i
                WHERE i.buyer_id = c.buyer_id AND i.month = c.statement_month)`,
      args: [month],
    }),
    db.execute({
      sql: `SELECT COUNT(*) AS n, SUM(paid_micros) AS paid, SUM(credit_micros) AS credit,
              SUM(CASE WHEN state IN ('open', 'partially_paid')
                THEN amount_due_micros - paid_micros ELSE 0 END) AS outstanding,
              SUM(CASE WHEN state IN ('open', 'partially_paid') AND due_at < ?
                THEN amount_due_micros - paid_micros ELSE 0 END) AS overdue,
              SUM(CASE WHEN state = 'void' THEN amount_due_micros - paid_micros ELSE 0 END) AS void,
              SUM(CASE WHEN state = 'uncollectible'
                THEN amount_due_micros - paid_micros ELSE 0 END) AS uncollectible
            FROM invoices WHERE month = ?`,
      args: [nowMs, month],
    }),
    db.execute({
      sql: `SELECT COUNT(*) AS n, SUM(amount_micros) AS t FROM credit_notes
            WHERE statement_month = ?`,
      args: [month],
    }),
    db.execute({
      sql: `SELECT COUNT(*) AS n, SUM(amount_micros) AS earned,
              SUM(CASE WHEN batch_id IS NOT NULL THEN paid_micros ELSE 0 END) AS batched,
              SUM(CASE WHEN state = 'paid' THEN paid_micros ELSE 0 END) AS paid
            FROM payouts WHERE month = ?`,
      args: [month],
    }),
  ]);
  const l = ledger.rows[0], i = invoices.rows[0], c = notes.rows[0], p = payouts.rows[0];
  return {
    billedMicros: n(l.billed),
    pricesMicros: n(l.prices),
    platformFeesMicros: n(l.fees),
    prepaidMicros: n(l.prepaid),
    untrackedMicros: n(untracked.rows[0].t),
    paidOnInvoicesMicros: n(i.paid),
    creditAppliedMicros: n(i.credit),
    outstandingMicros: n(i.outstanding),
    overdueMicros: n(i.overdue),
    voidMicros: n(i.void),
    uncollectibleMicros: n(i.uncollectible),
    invoices: n(i.n),
    creditedMicros: n(c.t),
    creditNotes: n(c.n),
    payoutsEarnedMicros: n(p.earned),
    payoutsBatchedMicros: n(p.batched),
    payoutsPaidMicros: n(p.paid),
    payouts: n(p.n),
  };
}
