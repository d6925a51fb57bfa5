/**
 * Buyers' suspensions (migration 0060): the open one is also kept on the buyer row
 * (`buyers.suspension`), so a read finds it through the configuration cache with the buyer
 * (an update of `buyers` bumps the configuration version, migration 0017); the history is
 * `buyer_suspensions`, one row per suspension with who started and lifted it.
 */
import { cachedConfig } from "./config_cache.ts";
import type { Client, Executor } from "./db.ts";

/** Why a buyer is suspended, as every priced read's refusal names it. */
export interface Suspension {
  reason: "payment_overdue" | "manual";
  /** The overdue invoice ("FOLIO-000042"), or null for a suspension by hand without one. */
  invoiceNumber: string | null;
  /** Where to see and pay it (the buyer portal's invoice page, or its invoices list). */
  url: string;
  note: string;
  since: number;
}

/** A suspension as the operator's list shows it. */
export interface SuspensionRecord extends Suspension {
  id: string;
  buyerId: string;
  buyerName: string;
  startedBy: string;
  liftedAt: number | null;
  liftedBy: string | null;
  liftNote: string | null;
}

/**
 * The buyer's open suspension, cached with the configuration: a read asks on every priced
 * decision, and this costs no query while the version the request already read holds.
 */
export function cachedSuspension(db: Client, buyerId: string): Promise<Suspension | null> {
  return cachedConfig(db, `suspension\n${buyerId}`, () => buyerSuspension(db, buyerId));
}

/** The buyer's open suspension, read now. */
export async function buyerSuspension(db: Executor, buyerId: string): Promise<Suspension | null> {
  const rs = await db.execute({
    sql: "SELECT suspension FROM buyers WHERE id = ?",
    args: [buyerId],
  });
  const raw = rs.rows[0]?.suspension;
  return raw === null || raw === undefined ? null : JSON.parse(String(raw)) as Suspension;
}

/** Starts a suspension; false when the buyer already had one open (nothing changes then). */
export async function startSuspension(
  db: Executor,
  s: { id: string; buyerId: string; suspension: Suspension; by: string; invoiceSeq: number | null },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO buyer_suspensions (id, buyer_id, reason, invoice_seq, note, started_at,
            started_by)
          SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (
            SELECT 1 FROM buyer_suspensions WHERE buyer_id = ? AND lifted_at IS NULL)`,
    args: [
      s.id,
      s.buyerId,
      s.suspension.reason,
      s.invoiceSeq,
      s.suspension.note,
      s.suspension.since,
      s.by,
      s.buyerId,
    ],
  });
  if (rs.rowsAffected !== 1) return false;
  await db.execute({
    sql: "UPDATE buyers SET suspension = ? WHERE id = ?",
    args: [JSON.stringify(s.suspension), s.buyerId],
  });
  return true;
}

/** Lifts the buyer's open suspension; false when it had none. */
export async function liftSuspension(
  db: Executor,
  l: { buyerId: string; by: string; note: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE buyer_suspensions SET lifted_at = ?, lifted_by = ?, lift_note = ?
          WHERE buyer_id = ? AND lifted_at IS NULL`,
    args: [l.now.getTime(), l.by, l.note, l.buyerId],
  });
  if (rs.rowsAffected !== 1) return false;
  await db.execute({ sql: "UPDATE buyers SET suspension = NULL WHERE id = ?", args: [l.buyerId] });
  return true;
}

/** Suspensions, open ones first, then newest; `open` keeps only those not lifted. */
export async function listSuspensions(
  db: Executor,
  filters: { open?: boolean; buyerId?: string },
  page: { limit: number; offset: number },
): Promise<SuspensionRecord[]> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filters.open) where.push("s.lifted_at IS NULL");
  if (filters.buyerId) where.push("s.buyer_id = ?"), args.push(filters.buyerId);
  const rs = await db.execute({
    sql: `SELECT s.*, b.name AS buyer_name, i.seq AS seq FROM buyer_suspensions s
            JOIN buyers b ON b.id = s.buyer_id LEFT JOIN invoices i ON i.seq = s.invoice_seq
          ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY s.lifted_at IS NOT NULL, s.started_at DESC, s.id LIMIT ? OFFSET ?`,
    args: [...args, page.limit, page.offset],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    buyerId: String(r.buyer_id),
    buyerName: String(r.buyer_name),
    reason: String(r.reason) as Suspension["reason"],
    invoiceNumber: r.seq === null ? null : `FOLIO-${String(r.seq).padStart(6, "0")}`,
    url: "",
    note: String(r.note),
    since: Number(r.started_at),
    startedBy: String(r.started_by),
    liftedAt: r.lifted_at === null ? null : Number(r.lifted_at),
    liftedBy: r.lifted_by === null ? null : String(r.lifted_by),
    liftNote: r.lift_note === null ? null : String(r.lift_note),
  }));
}
