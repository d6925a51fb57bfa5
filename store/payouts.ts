/**
 * Persistence of publisher payouts: a publisher's own prices, per statement month (`amount_micros`,
 * accrued), and their way to paid (migration 0070): a batch, what it pays, the date and reference.
 */
import type { Executor } from "./db.ts";

/** A payout row. */
export interface Payout {
  id: string;
  publisherId: string;
  month: string;
  amountMicros: number;
  state: "pending" | "paid";
  batchId: string | null;
  /** What its batch pays (set with the batch). */
  paidMicros: number | null;
  paidAt: number | null;
  reference: string | null;
  /** The operator's review hold, its reason; null when none. */
  reviewHold: string | null;
  createdAt: number;
}

/** A payout with its publisher's name (the operator's lists). */
export interface PayoutListed extends Payout {
  publisherName: string;
}

/**
 * Sets each publisher's payout for `month` to the sum of its prices on that month's statements
 * (platform fees excluded). A payout already in a batch or paid is never changed.
 */
export async function upsertPayouts(
  db: Executor,
  month: string,
  options: { newId: () => string; now: Date },
): Promise<number> {
  const sums = await db.execute({
    sql: `SELECT publisher_id, SUM(price_micros) AS amount FROM charges
          WHERE statement_month = ? GROUP BY publisher_id ORDER BY publisher_id`,
    args: [month],
  });
  for (const r of sums.rows) {
    await db.execute({
      sql: `INSERT INTO payouts (id, publisher_id, month, amount_micros, state, created_at)
            VALUES (?, ?, ?, ?, 'pending', ?)
            ON CONFLICT (publisher_id, month) DO UPDATE SET amount_micros = excluded.amount_micros
            WHERE payouts.state = 'pending' AND payouts.batch_id IS NULL`,
      args: [
        options.newId(),
        String(r.publisher_id),
        month,
        Number(r.amount),
        options.now.getTime(),
      ],
    });
  }
  return sums.rows.length;
}

/** The publisher's payouts, newest month first. */
export async function listPayouts(
  db: Executor,
  publisherId: string,
  options: { limit: number },
): Promise<Payout[]> {
  const rs = await db.execute({
    sql: "SELECT * FROM payouts WHERE publisher_id = ? ORDER BY month DESC LIMIT ?",
    args: [publisherId, options.limit],
  });
  return rs.rows.map(payoutOf);
}

/** Every publisher's payout for one month (what the month close tells publishers). */
export async function payoutsOfMonth(
  db: Executor,
  month: string,
): Promise<{ publisherId: string; amountMicros: number }[]> {
  const rs = await db.execute({
    sql: "SELECT publisher_id, amount_micros FROM payouts WHERE month = ? ORDER BY publisher_id",
    args: [month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    amountMicros: Number(r.amount_micros),
  }));
}

/** One payout, or null. */
export async function payoutById(db: Executor, id: string): Promise<PayoutListed | null> {
  const rs = await db.execute({
    sql: `SELECT p.*, pub.name AS publisher_name FROM payouts p
          JOIN publishers pub ON pub.id = p.publisher_id WHERE p.id = ?`,
    args: [id],
  });
  return rs.rows[0] ? listedOf(rs.rows[0]) : null;
}

/** Filters of the operator's payout list; `state` is the stored one plus `batched`. */
export interface PayoutFilter {
  month?: string;
  publisherId?: string;
  batchId?: string;
  stage?: "unbatched" | "batched" | "paid";
}

/** Payouts matching `filter`, newest month first, then by publisher; `offset` pages. */
export async function findPayouts(
  db: Executor,
  filter: PayoutFilter,
  page: { limit: number; offset: number },
): Promise<{ payouts: PayoutListed[]; total: number }> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.month) where.push("p.month = ?"), args.push(filter.month);
  if (filter.publisherId) where.push("p.publisher_id = ?"), args.push(filter.publisherId);
  if (filter.batchId) where.push("p.batch_id = ?"), args.push(filter.batchId);
  if (filter.stage === "unbatched") where.push("p.batch_id IS NULL AND p.state = 'pending'");
  if (filter.stage === "batched") where.push("p.batch_id IS NOT NULL AND p.state = 'pending'");
  if (filter.stage === "paid") where.push("p.state = 'paid'");
  const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const [rows, count] = await Promise.all([
    db.execute({
      sql: `SELECT p.*, pub.name AS publisher_name FROM payouts p
            JOIN publishers pub ON pub.id = p.publisher_id ${clause}
            ORDER BY p.month DESC, pub.name, p.id LIMIT ? OFFSET ?`,
      args: [...args, page.limit, page.offset],
    }),
    db.execute({ sql: `SELECT COUNT(*) AS n FROM payouts p ${clause}`, args }),
  ]);
  return { payouts: rows.rows.map(listedOf), total: Number(count.rows[0].n) };
}

/**
 * Puts payout `id` in batch `batchId` paying `paidMicros`; false (nothing written) when it is
 * already in a batch, paid, or on review hold: the one guard against paying twice.
 */
export async function batchPayout(
  db: Executor,
  id: string,
  batchId: string,
  paidMicros: number,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE payouts SET batch_id = ?, paid_micros = ?
          WHERE id = ? AND batch_id IS NULL AND state = 'pending' AND review_hold IS NULL`,
    args: [batchId, paidMicros, id],
  });
  return rs.rowsAffected === 1;
}

/** Marks a batched payout paid; false when it is not in a batch or already paid. */
export async function markPayoutPaid(
  db: Executor,
  id: string,
  paid: { at: number; reference: string },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE payouts SET state = 'paid', paid_at = ?, reference = ?
          WHERE id = ? AND batch_id IS NOT NULL AND state = 'pending'`,
    args: [paid.at, paid.reference, id],
  });
  return rs.rowsAffected === 1;
}

/** Sets or lifts (null) the review hold of a payout not yet batched; false when it is. */
export async function setReviewHold(
  db: Executor,
  id: string,
  reason: string | null,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE payouts SET review_hold = ?
          WHERE id = ? AND batch_id IS NULL AND state = 'pending'`,
    args: [reason, id],
  });
  return rs.rowsAffected === 1;
}

/** A payout batch row. */
export interface PayoutBatch {
  id: string;
  month: string;
  payoutCount: number;
  totalMicros: number;
  approvedBy: string;
  createdAt: number;
  exportedAt: number | null;
}

/** Records a batch (its payouts are put in it by batchPayout, in the same transaction). */
export async function insertBatch(db: Executor, batch: PayoutBatch): Promise<void> {
  await db.execute({
    sql: `INSERT INTO payout_batches (id, month, payout_count, total_micros, approved_by,
            created_at, exported_at) VALUES (?, ?, ?, ?, ?, ?, NULL)`,
    args: [
      batch.id,
      batch.month,
      batch.payoutCount,
      batch.totalMicros,
      batch.approvedBy,
      batch.createdAt,
    ],
  });
}

/** One batch, or null. */
export async function batchById(db: Executor, id: string): Promise<PayoutBatch | null> {
  const rs = await db.execute({ sql: "SELECT * FROM payout_batches WHERE id = ?", args: [id] });
  return rs.rows[0] ? batchOf(rs.rows[0]) : null;
}

/** Batches, newest first (optionally of one month). */
export async function listBatches(
  db: Executor,
  options: { month?: string; limit: number; offset: number },
): Promise<PayoutBatch[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM payout_batches ${options.month ? "WHERE month = ?" : ""}
          ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    args: [...(options.month ? [options.month] : []), options.limit, options.offset],
  });
  return rs.rows.map(batchOf);
}

/** Records the first export of a batch; false when it was exported before. */
export async function markBatchExported(db: Executor, id: string, at: number): Promise<boolean> {
  const rs = await db.execute({
    sql: "UPDATE payout_batches SET exported_at = ? WHERE id = ? AND exported_at IS NULL",
    args: [at, id],
  });
  return rs.rowsAffected === 1;
}

function payoutOf(r: Record<string, unknown>): Payout {
  const nullable = (v: unknown) => (v === null || v === undefined ? null : v);
  return {
    id: String(r.id),
    publisherId: String(r.publisher_id),
    month: String(r.month),
    amountMicros: Number(r.amount_micros),
    state: String(r.state) as Payout["state"],
    batchId: nullable(r.batch_id) === null ? null : String(r.batch_id),
    paidMicros: nullable(r.paid_micros) === null ? null : Number(r.paid_micros),
    paidAt: nullable(r.paid_at) === null ? null : Number(r.paid_at),
    reference: nullable(r.reference) === null ? null : String(r.reference),
    reviewHold: nullable(r.review_hold) === null ? null : String(r.review_hold),
    createdAt: Number(r.created_at),
  };
}

function listedOf(r: Record<string, unknown>): PayoutListed {
  return { ...payoutOf(r), publisherName: String(r.publisher_name) };
}

function batchOf(r: Record<string, unknown>): PayoutBatch {
  return {
    id: String(r.id),
    month: String(r.month),
    payoutCount: Number(r.payout_count),
    totalMicros: Number(r.total_micros),
    approvedBy: String(r.approved_by),
    createdAt: Number(r.created_at),
    exportedAt: r.exported_at === null ? null : Number(r.exported_at),
  };
}

/**
 * A publisher's prices on one buyer's statement: all of it, and the part invoiced (not paid by
 * card, not a credit note carried by the buyer's credit balance: both count as they stand).
 */
export interface InvoiceShare {
  publisherId: string;
  buyerId: string;
  month: string;
  shareMicros: number;
  invoicedShareMicros: number;
}

/** Every publisher's share of every buyer statement up to `month` (one grouped scan). */
export async function invoiceSharesUpTo(db: Executor, month: string): Promise<InvoiceShare[]> {
  const rs = await db.execute({
    sql: `SELECT publisher_id, buyer_id, statement_month, SUM(price_micros) AS share,
            SUM(CASE WHEN paid_via IS NULL AND credit_via IS NOT 'balance' THEN price_micros
              ELSE 0 END) AS invoiced
          FROM charges WHERE statement_month <= ?
          GROUP BY publisher_id, buyer_id, statement_month`,
    args: [month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    buyerId: String(r.buyer_id),
    month: String(r.statement_month),
    shareMicros: Number(r.share),
    invoicedShareMicros: Number(r.invoiced),
  }));
}

/** Each buyer statement's invoiced total up to `month` (price + fee; as the shares' invoiced part). */
export async function invoicedTotalsUpTo(
  db: Executor,
  month: string,
): Promise<{ buyerId: string; month: string; invoicedMicros: number }[]> {
  const rs = await db.execute({
    sql: `SELECT buyer_id, statement_month, SUM(price_micros + fee_micros) AS t
          FROM charges WHERE statement_month <= ? AND paid_via IS NULL
            AND credit_via IS NOT 'balance'
          GROUP BY buyer_id, statement_month`,
    args: [month],
  });
  return rs.rows.map((r) => ({
    buyerId: String(r.buyer_id),
    month: String(r.statement_month),
    invoicedMicros: Number(r.t),
  }));
}

/** What each invoice up to `month` received (receivables, migration 0060): its state and money. */
export async function invoiceReceiptsUpTo(
  db: Executor,
  month: string,
): Promise<{ buyerId: string; month: string; state: string; receivedMicros: number }[]> {
  const rs = await db.execute({
    sql: `SELECT buyer_id, month, state, credit_micros + paid_micros AS received
          FROM invoices WHERE month <= ?`,
    args: [month],
  });
  return rs.rows.map((r) => ({
    buyerId: String(r.buyer_id),
    month: String(r.month),
    state: String(r.state),
    receivedMicros: Number(r.received),
  }));
}

/** Publishers with a dispute still undecided (open or escalated: migration 0065). */
export async function publishersWithOpenDisputes(db: Executor): Promise<Set<string>> {
  const rs = await db.execute(
    "SELECT DISTINCT publisher_id FROM disputes WHERE state IN ('open', 'escalated')",
  );
  return new Set(rs.rows.map((r) => String(r.publisher_id)));
}

/** Every payout not yet batched up to `month` (what a batch may take, and what holds it). */
export async function unbatchedUpTo(db: Executor, month: string): Promise<PayoutListed[]> {
  const rs = await db.execute({
    sql: `SELECT p.*, pub.name AS publisher_name FROM payouts p
          JOIN publishers pub ON pub.id = p.publisher_id
          WHERE p.month <= ? AND p.batch_id IS NULL AND p.state = 'pending'
          ORDER BY p.publisher_id, p.month`,
    args: [month],
  });
  return rs.rows.map(listedOf);
}

/** What batches hold, per publisher and month. */
export async function batchedByMonth(
  db: Executor,
): Promise<{ publisherId: string; month: string; micros: number }[]> {
  const rs = await db.execute(
    `SELECT publisher_id, month, SUM(paid_micros) AS t FROM payouts
     WHERE batch_id IS NOT NULL GROUP BY publisher_id, month`,
  );
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    month: String(r.month),
    micros: Number(r.t),
  }));
}
