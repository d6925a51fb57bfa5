/**
 * Receivables (migration 0060): issued invoices' state and amounts, the payments recorded against
 * them, the reminders sent, and buyers' suspensions. Writers run inside the caller's write
 * transaction (server/domain/billing/receivables.ts), so a payment, its invoice's new state and
 * any credit it leaves commit together.
 */
import type { Executor } from "./db.ts";

export type InvoiceState = "open" | "partially_paid" | "paid" | "void" | "uncollectible";

/** An issued invoice's row. */
export interface InvoiceRow {
  seq: number;
  buyerId: string;
  month: string;
  issuedAt: number;
  dueAt: number;
  totalMicros: number;
  prepaidMicros: number;
  creditMicros: number;
  amountDueMicros: number;
  paidMicros: number;
  state: InvoiceState;
  paidAt: number | null;
  closedReason: string | null;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  updatedAt: number;
}

/** One payment recorded against an invoice. */
export interface PaymentRow {
  id: string;
  invoiceSeq: number;
  buyerId: string;
  amountMicros: number;
  appliedMicros: number;
  paidOn: string;
  method: string;
  reference: string;
  idempotencyKey: string;
  recordedBy: string;
  createdAt: number;
}

/** Stores a newly issued invoice; false when the month's invoice already existed. */
export async function insertInvoice(
  db: Executor,
  i: Omit<
    InvoiceRow,
    "paidMicros" | "paidAt" | "closedReason" | "checkoutSessionId" | "checkoutUrl"
  >,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO invoices (seq, buyer_id, month, issued_at, due_at, total_micros,
            prepaid_micros, credit_micros, amount_due_micros, state, paid_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    args: [
      i.seq,
      i.buyerId,
      i.month,
      i.issuedAt,
      i.dueAt,
      i.totalMicros,
      i.prepaidMicros,
      i.creditMicros,
      i.amountDueMicros,
      i.state,
      i.state === "paid" ? i.issuedAt : null,
      i.updatedAt,
    ],
  });
  return rs.rowsAffected === 1;
}

/** The invoice with this number. */
export async function getInvoice(db: Executor, seq: number): Promise<InvoiceRow | null> {
  const rs = await db.execute({ sql: "SELECT * FROM invoices WHERE seq = ?", args: [seq] });
  return rs.rows[0] ? invoiceOfRow(rs.rows[0]) : null;
}

/** The buyer's invoice for a month. */
export async function invoiceForMonth(
  db: Executor,
  buyerId: string,
  month: string,
): Promise<InvoiceRow | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM invoices WHERE buyer_id = ? AND month = ?",
    args: [buyerId, month],
  });
  return rs.rows[0] ? invoiceOfRow(rs.rows[0]) : null;
}

/** Filters of the invoice lists (every one optional). */
export interface InvoiceFilters {
  buyerId?: string;
  state?: InvoiceState;
  month?: string;
  /** Only open or partly paid invoices whose due date is before this instant. */
  overdueAt?: number;
}

/** Invoices matching `filters`, newest number first, one page (`limit` + 1 to tell a next page). */
export async function listInvoices(
  db: Executor,
  filters: InvoiceFilters,
  page: { limit: number; offset: number },
): Promise<InvoiceRow[]> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filters.buyerId) where.push("buyer_id = ?"), args.push(filters.buyerId);
  if (filters.state) where.push("state = ?"), args.push(filters.state);
  if (filters.month) where.push("month = ?"), args.push(filters.month);
  if (filters.overdueAt !== undefined) {
    where.push("state IN ('open', 'partially_paid') AND due_at < ?"), args.push(filters.overdueAt);
  }
  const rs = await db.execute({
    sql: `SELECT * FROM invoices ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY seq DESC LIMIT ? OFFSET ?`,
    args: [...args, page.limit, page.offset],
  });
  return rs.rows.map(invoiceOfRow);
}

/** Open and partly paid invoices whose due date is before `dueBefore`, oldest due first. */
export async function unpaidDueBefore(db: Executor, dueBefore: number): Promise<InvoiceRow[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM invoices WHERE state IN ('open', 'partially_paid') AND due_at < ?
          ORDER BY due_at, seq`,
    args: [dueBefore],
  });
  return rs.rows.map(invoiceOfRow);
}

/** Sets what was paid and the state it brings; only from an open or partly paid invoice. */
export async function setInvoicePaid(
  db: Executor,
  seq: number,
  u: { paidMicros: number; state: "partially_paid" | "paid"; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE invoices SET paid_micros = ?, state = ?,
            paid_at = CASE WHEN ? = 'paid' THEN ? ELSE NULL END, updated_at = ?
          WHERE seq = ? AND state IN ('open', 'partially_paid') AND ? <= amount_due_micros`,
    args: [u.paidMicros, u.state, u.state, u.now.getTime(), u.now.getTime(), seq, u.paidMicros],
  });
  return rs.rowsAffected === 1;
}

/** Voids or writes off an invoice, with the reason; only from open or partly paid. */
export async function closeInvoice(
  db: Executor,
  seq: number,
  u: { state: "void" | "uncollectible"; reason: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE invoices SET state = ?, closed_reason = ?, updated_at = ?
          WHERE seq = ? AND state IN ('open', 'partially_paid')`,
    args: [u.state, u.reason, u.now.getTime(), seq],
  });
  return rs.rowsAffected === 1;
}

/** Keeps the invoice's Checkout Session (payment link). */
export async function setInvoiceCheckout(
  db: Executor,
  seq: number,
  session: { id: string; url: string; now: Date },
): Promise<void> {
  await db.execute({
    sql:
      "UPDATE invoices SET checkout_session_id = ?, checkout_url = ?, updated_at = ? WHERE seq = ?",
    args: [session.id, session.url, session.now.getTime(), seq],
  });
}

/** The payment recorded under this idempotency key, if any. */
export async function paymentByKey(db: Executor, key: string): Promise<PaymentRow | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM invoice_payments WHERE idempotency_key = ?",
    args: [key],
  });
  return rs.rows[0] ? paymentOfRow(rs.rows[0]) : null;
}

/** Stores a payment (the caller checked its key is new, in the same transaction). */
export async function insertPayment(db: Executor, p: PaymentRow): Promise<void> {
  await db.execute({
    sql: `INSERT INTO invoice_payments (id, invoice_seq, buyer_id, amount_micros, applied_micros,
            paid_on, method, reference, idempotency_key, recorded_by, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      p.id,
      p.invoiceSeq,
      p.buyerId,
      p.amountMicros,
      p.appliedMicros,
      p.paidOn,
      p.method,
      p.reference,
      p.idempotencyKey,
      p.recordedBy,
      p.createdAt,
    ],
  });
}

/** The payments of invoices `seqs`, oldest first. */
export async function paymentsOf(db: Executor, seqs: number[]): Promise<PaymentRow[]> {
  if (seqs.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT * FROM invoice_payments WHERE invoice_seq IN (${seqs.map(() => "?").join(",")})
          ORDER BY created_at, id`,
    args: seqs,
  });
  return rs.rows.map(paymentOfRow);
}

/** Records that a reminder of `kind` went out for an invoice; false when it already had. */
export async function markReminder(
  db: Executor,
  seq: number,
  kind: string,
  now: Date,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO invoice_reminders (invoice_seq, kind, sent_at) VALUES (?, ?, ?)
          ON CONFLICT DO NOTHING`,
    args: [seq, kind, now.getTime()],
  });
  return rs.rowsAffected === 1;
}

/** The reminders sent for an invoice. */
export async function remindersOf(db: Executor, seq: number): Promise<string[]> {
  const rs = await db.execute({
    sql: "SELECT kind FROM invoice_reminders WHERE invoice_seq = ? ORDER BY sent_at, kind",
    args: [seq],
  });
  return rs.rows.map((r) => String(r.kind));
}

function invoiceOfRow(r: Record<string, unknown>): InvoiceRow {
  const num = (v: unknown) => Number(v);
  const opt = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    seq: num(r.seq),
    buyerId: String(r.buyer_id),
    month: String(r.month),
    issuedAt: num(r.issued_at),
    dueAt: num(r.due_at),
    totalMicros: num(r.total_micros),
    prepaidMicros: num(r.prepaid_micros),
    creditMicros: num(r.credit_micros),
    amountDueMicros: num(r.amount_due_micros),
    paidMicros: num(r.paid_micros),
    state: String(r.state) as InvoiceState,
    paidAt: r.paid_at === null ? null : num(r.paid_at),
    closedReason: opt(r.closed_reason),
    checkoutSessionId: opt(r.checkout_session_id),
    checkoutUrl: opt(r.checkout_url),
    updatedAt: num(r.updated_at),
  };
}

function paymentOfRow(r: Record<string, unknown>): PaymentRow {
  return {
    id: String(r.id),
    invoiceSeq: Number(r.invoice_seq),
    buyerId: String(r.buyer_id),
    amountMicros: Number(r.amount_micros),
    appliedMicros: Number(r.applied_micros),
    paidOn: String(r.paid_on),
    method: String(r.method),
    reference: String(r.reference),
    idempotencyKey: String(r.idempotency_key),
    recordedBy: String(r.recorded_by),
    createdAt: Number(r.created_at),
  };
}

/** The names of these buyers, by id. */
export async function buyerNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT id, name FROM buyers WHERE id IN (${unique.map(() => "?").join(",")})`,
    args: unique,
  });
  return new Map(rs.rows.map((r) => [String(r.id), String(r.name)]));
}
