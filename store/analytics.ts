/**
 * A publisher's activity per UTC day for the console's charts: calls by surface, full-article
 * reads, charged reads and earnings, and the most frequent reader intents.
 */
import type { Client } from "./db.ts";

const DAY_MS = 86_400_000;

/** Calls of one surface on one day; `reads` are successful get_article calls on any surface. */
export interface DailySurfaceCalls {
  day: number;
  surface: string;
  calls: number;
  errors: number;
  reads: number;
}

/** Charges of one day: what the publisher earned and the platform fee beside it, in micros. */
export interface DailyCharges {
  day: number;
  chargedReads: number;
  earnedMicros: number;
  feeMicros: number;
}

/**
 * Calls since `since`, per day and surface; trace rows (protocol methods) are not calls. The
 * call log has no (publisher, time) index: ids grow with time, so the first id logged at or after
 * `since` (found on the time index) bounds the walk of the publisher index instead.
 */
export async function dailySurfaceCalls(
  db: Client,
  publisherId: string,
  since: Date,
): Promise<DailySurfaceCalls[]> {
  const rs = await db.execute({
    sql: `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, surface, COUNT(*) AS calls,
            SUM(status = 'error') AS errors,
            SUM(status = 'ok' AND tool IN ('get_article', '_rest:get_article')) AS reads
          FROM call_log
          WHERE publisher_id = ? AND status != 'trace' AND at >= ?
            AND id >= COALESCE((SELECT id FROM call_log WHERE at >= ? ORDER BY at LIMIT 1), 0)
          GROUP BY day, surface ORDER BY day, surface`,
    args: [publisherId, since.getTime(), since.getTime()],
  });
  return rs.rows.map((r) => ({
    day: Number(r.day),
    surface: String(r.surface),
    calls: Number(r.calls),
    errors: Number(r.errors),
    reads: Number(r.reads),
  }));
}

/** Per-read charges (metered and landing) since `since`, per day. */
export async function dailyCharges(
  db: Client,
  publisherId: string,
  since: Date,
): Promise<DailyCharges[]> {
  const month = since.toISOString().slice(0, 7);
  const rs = await db.execute({
    sql: `SELECT (created_at / ${DAY_MS}) * ${DAY_MS} AS day, COUNT(*) AS reads,
            SUM(price_micros) AS earned, SUM(fee_micros) AS fees
          FROM charges
          WHERE publisher_id = ?1 AND statement_month >= ?2 AND month >= ?2 AND created_at >= ?3
            AND kind IN ('metered', 'landing')
          GROUP BY day ORDER BY day`,
    // A charge's statement month is its own month or a later one: the index narrows by it.
    args: [publisherId, month, since.getTime()],
  });
  return rs.rows.map((r) => ({
    day: Number(r.day),
    chargedReads: Number(r.reads),
    earnedMicros: Number(r.earned),
    feeMicros: Number(r.fees),
  }));
}

/** The most frequent reader intents since `since` (case and spacing folded), most frequent first. */
export async function topIntents(
  db: Client,
  publisherId: string,
  since: Date,
  options: { limit: number },
): Promise<{ prompt: string; count: number; lastAt: number }[]> {
  const rs = await db.execute({
    sql: `SELECT MAX(prompt) AS prompt, COUNT(*) AS n, MAX(at) AS last_at FROM reader_intents
          WHERE publisher_id = ? AND at >= ?
          GROUP BY lower(trim(prompt)) ORDER BY n DESC, last_at DESC LIMIT ?`,
    args: [publisherId, since.getTime(), options.limit],
  });
  return rs.rows.map((r) => ({
    prompt: String(r.prompt),
    count: Number(r.n),
    lastAt: Number(r.last_at),
  }));
}
