/** Persistence of the ledger (charges). */
import type { Client } from "./db.ts";

/** A ledger total for one publisher and kind of charge within a buyer's month. */
export interface LedgerGroup {
  publisherId: string;
  publisherName: string;
  kind: "metered" | "landing" | "subscription" | "adjustment";
  count: number;
  priceMicros: number;
  feeMicros: number;
}

/** The buyer's ledger for a month, grouped by publisher and kind of charge. */
export async function ledgerForMonth(
  db: Client,
  buyerId: string,
  month: string,
): Promise<LedgerGroup[]> {
  const rs = await db.execute({
    sql: `SELECT c.publisher_id, p.name AS publisher_name, c.kind, COUNT(*) AS n,
            SUM(c.price_micros) AS price, SUM(c.fee_micros) AS fee
          FROM charges c JOIN publishers p ON p.id = c.publisher_id
          WHERE c.buyer_id = ? AND c.month = ?
          GROUP BY c.publisher_id, c.kind ORDER BY p.name, c.kind`,
    args: [buyerId, month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    publisherName: String(r.publisher_name),
    kind: String(r.kind) as LedgerGroup["kind"],
    count: Number(r.n),
    priceMicros: Number(r.price),
    feeMicros: Number(r.fee),
  }));
}
