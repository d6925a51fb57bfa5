/**
 * A publisher's activity per UTC day for the console's charts: calls by surface, full-article
 * reads, charged reads and earnings, and the most frequent reader intents.
 */
import { AGENT_KEY_SQL } from "./call_list.ts";
import type { Client } from "./db.ts";

const DAY_MS = 86_400_000;

/**
 * Calls of one surface on one day; `reads` are its answered calls that read an article, on any
 * surface, the landing path's included (the reads `topArticles` counts per article; rows logged
 * before calls noted their article count by their tool).
 */
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
 * `since` (found on the time index) bounds the walk of the publisher index instead: the least id of
 * the first instant, as calls logged in one millisecond are in the index by surface, not by id.
 */
export async function dailySurfaceCalls(
  db: Client,
  publisherId: string,
  since: Date,
): Promise<DailySurfaceCalls[]> {
  const rs = await db.execute({
    sql: `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, surface, COUNT(*) AS calls,
            SUM(status = 'error') AS errors,
            SUM(status = 'ok' AND (article_id IS NOT NULL
              OR tool IN ('get_article', '_rest:get_article'))) AS reads
          FROM call_log
          WHERE publisher_id = ? AND status != 'trace' AND at >= ?
            AND id >= COALESCE((SELECT MIN(id) FROM call_log
              WHERE at = (SELECT MIN(at) FROM call_log WHERE at >= ?)), 0)
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

/** Calls of one caller (an agent key, store/call_list.ts AGENT_KEY_SQL) on one day. */
export interface DailyAgentCalls {
  day: number;
  agent: string;
  calls: number;
}

/** Calls since `since`, per day and caller (crawler family, agent, buyer, client, anonymous). */
export async function dailyAgentCalls(
  db: Client,
  publisherId: string,
  since: Date,
): Promise<DailyAgentCalls[]> {
  const rs = await db.execute({
    sql: `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, ${AGENT_KEY_SQL} AS agent, COUNT(*) AS n
          FROM call_log INDEXED BY call_log_calls_by_time
          WHERE publisher_id = ? AND status != 'trace' AND at >= ?
          GROUP BY day, agent ORDER BY day, agent`,
    args: [publisherId, since.getTime()],
  });
  return rs.rows.map((r) => ({
    day: Number(r.day),
    agent: String(r.agent),
    calls: Number(r.n),
  }));
}

/** One article's reads and earnings in a window. */
export interface ArticleActivity {
  articleId: string;
  title: string | null;
  url: string | null;
  /** Calls that read it and were answered (any outcome but an error is a read of the page). */
  reads: number;
  chargedReads: number;
  earnedMicros: number;
}

/**
 * The articles most read or most earning since `since`: reads from the call log (calls that read
 * the article and succeeded), earnings from per-read charges; `by` orders them, ties by the other.
 */
export async function topArticles(
  db: Client,
  publisherId: string,
  since: Date,
  options: { by: "reads" | "earnings"; limit: number },
): Promise<ArticleActivity[]> {
  const order = options.by === "reads"
    ? "reads DESC, earned DESC"
    : "earned DESC, charged DESC, reads DESC";
  const rs = await db.execute({
    sql: `WITH r AS (
            SELECT article_id, COUNT(*) AS reads FROM call_log INDEXED BY call_log_calls_by_time
            WHERE publisher_id = ?1 AND status != 'trace' AND status = 'ok' AND at >= ?2
              AND article_id IS NOT NULL
            GROUP BY article_id),
          e AS (
            SELECT article_id, COUNT(*) AS charged, SUM(price_micros) AS earned FROM charges
            WHERE publisher_id = ?1 AND created_at >= ?2 AND month >= ?4 AND article_id IS NOT NULL
              AND kind IN ('metered', 'landing')
            GROUP BY article_id),
          ids AS (SELECT article_id FROM r UNION SELECT article_id FROM e)
          SELECT ids.article_id, a.title, a.url, COALESCE(r.reads, 0) AS reads,
            COALESCE(e.charged, 0) AS charged, COALESCE(e.earned, 0) AS earned
          FROM ids LEFT JOIN r USING (article_id) LEFT JOIN e USING (article_id)
          LEFT JOIN articles a ON a.id = ids.article_id AND a.publisher_id = ?1
          ORDER BY ${order}, ids.article_id LIMIT ?3`,
    // The usage month narrows by charges_by_publisher_month: no index of its own, since every
    // index on charges costs each charged read a write (docs/decisions/billing.md).
    args: [publisherId, since.getTime(), options.limit, since.toISOString().slice(0, 7)],
  });
  return rs.rows.map((r) => ({
    articleId: String(r.article_id),
    title: r.title === null ? null : String(r.title),
    url: r.url === null ? null : String(r.url),
    reads: Number(r.reads),
    chargedReads: Number(r.charged),
    earnedMicros: Number(r.earned),
  }));
}
