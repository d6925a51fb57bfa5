/** Persistence of the paywall meter: free PAYWALL reads of identities that are not buyers. */
import type { Client } from "./db.ts";

/**
 * Free reads `identity` used with the publisher in `month`; with `articleId`, 0 when that article
 * is one of them (an article already read this month is free to read again). One query.
 */
export async function meterCount(
  db: Client,
  publisherId: string,
  options: { identity: string; month: string; articleId?: string },
): Promise<number> {
  const rs = await db.execute({
    sql: `SELECT (SELECT count FROM meters WHERE publisher_id = ?1 AND identity = ?2 AND month = ?3)
            AS count,
          EXISTS (SELECT 1 FROM meter_reads
            WHERE publisher_id = ?1 AND identity = ?2 AND month = ?3 AND article_id = ?4) AS seen`,
    args: [publisherId, options.identity, options.month, options.articleId ?? null],
  });
  const row = rs.rows[0];
  return Number(row.seen) ? 0 : Number(row.count ?? 0);
}

/**
 * Uses one free read for this article if fewer than `limit` distinct articles were read this
 * month; an article already read this month is free again. False when the meter is exhausted.
 * Atomic: one write transaction.
 */
export async function takeMeteredRead(
  db: Client,
  publisherId: string,
  options: { identity: string; month: string; limit: number; articleId: string; now: Date },
): Promise<boolean> {
  const key = [publisherId, options.identity, options.month];
  const tx = await db.transaction("write");
  try {
    const seen = await tx.execute({
      sql: `SELECT 1 FROM meter_reads
            WHERE publisher_id = ? AND identity = ? AND month = ? AND article_id = ?`,
      args: [...key, options.articleId],
    });
    if (seen.rows.length > 0) return true;
    if (options.limit <= 0) return false;
    const counted = await tx.execute({
      sql: `INSERT INTO meters (publisher_id, identity, month, count) VALUES (?, ?, ?, 1)
            ON CONFLICT (publisher_id, identity, month) DO UPDATE SET count = count + 1
            WHERE meters.count < ?`,
      args: [...key, options.limit],
    });
    if (counted.rowsAffected === 0) return false;
    await tx.execute({
      sql: `INSERT INTO meter_reads (publisher_id, identity, month, article_id, at)
            VALUES (?, ?, ?, ?, ?)`,
      args: [...key, options.articleId, options.now.getTime()],
    });
    await tx.commit();
    return true;
  } finally {
    tx.close();
  }
}
