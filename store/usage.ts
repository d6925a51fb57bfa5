/** Persistence of the month's counters: a buyer's metered spend and a non-buyer's paywall meter. */
import type { Client } from "./db.ts";

/** The buyer's metered spend with the publisher in `month` ("YYYY-MM"), in micros. */
export async function spendThisMonth(
  db: Client,
  buyerId: string,
  options: { publisherId: string; month: string },
): Promise<number> {
  const rs = await db.execute({
    sql: `SELECT metered_micros FROM monthly_spend
          WHERE buyer_id = ? AND publisher_id = ? AND month = ?`,
    args: [buyerId, options.publisherId, options.month],
  });
  return rs.rows[0] ? Number(rs.rows[0].metered_micros) : 0;
}

/** How many free PAYWALL reads `identity` has used with the publisher in `month`. */
export async function meterCount(
  db: Client,
  publisherId: string,
  options: { identity: string; month: string },
): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT count FROM meters WHERE publisher_id = ? AND identity = ? AND month = ?",
    args: [publisherId, options.identity, options.month],
  });
  return rs.rows[0] ? Number(rs.rows[0].count) : 0;
}

/** Uses one free read if fewer than `limit` were used; false when the meter is exhausted. Atomic. */
export async function takeMeteredRead(
  db: Client,
  publisherId: string,
  options: { identity: string; month: string; limit: number },
): Promise<boolean> {
  if (options.limit <= 0) return false;
  const rs = await db.execute({
    sql: `INSERT INTO meters (publisher_id, identity, month, count) VALUES (?, ?, ?, 1)
          ON CONFLICT (publisher_id, identity, month) DO UPDATE SET count = count + 1
          WHERE meters.count < ?`,
    args: [publisherId, options.identity, options.month, options.limit],
  });
  return rs.rowsAffected > 0;
}
