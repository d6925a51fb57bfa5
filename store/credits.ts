/** A buyer's credit balance (migration 0060): signed entries, one per source, summed. */
import type { Executor } from "./db.ts";

/** Where an entry came from: granted (overpayment, credit note), used (an invoice), given back (its void). */
export type CreditSource = "overpayment" | "credit_note" | "invoice" | "void";

/** One entry of the balance, as pages and the API list it. */
export interface CreditEntry {
  id: string;
  amountMicros: number;
  source: CreditSource;
  sourceId: string;
  createdAt: number;
}

/** Writes an entry once per source and source id; false when it was already there. */
export async function insertCreditEntry(
  db: Executor,
  e: {
    id: string;
    buyerId: string;
    amountMicros: number;
    source: CreditSource;
    sourceId: string;
    now: Date;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO buyer_credits (id, buyer_id, amount_micros, source, source_id, created_at)
          VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source, source_id) DO NOTHING`,
    args: [e.id, e.buyerId, e.amountMicros, e.source, e.sourceId, e.now.getTime()],
  });
  return rs.rowsAffected === 1;
}

/** The sum of the buyer's entries, in micros (never negative: use is capped by the balance). */
export async function creditBalanceMicros(db: Executor, buyerId: string): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT COALESCE(SUM(amount_micros), 0) AS balance FROM buyer_credits WHERE buyer_id = ?",
    args: [buyerId],
  });
  return Number(rs.rows[0].balance);
}

/** The buyer's entries, newest first. */
export async function creditEntries(db: Executor, buyerId: string): Promise<CreditEntry[]> {
  const rs = await db.execute({
    sql: `SELECT id, amount_micros, source, source_id, created_at FROM buyer_credits
          WHERE buyer_id = ? ORDER BY created_at DESC, id DESC`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    amountMicros: Number(r.amount_micros),
    source: String(r.source) as CreditSource,
    sourceId: String(r.source_id),
    createdAt: Number(r.created_at),
  }));
}
