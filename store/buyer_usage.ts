/** A buyer's calls per publisher from the call log, across every identity that bills to it. */
import type { Client } from "./db.ts";

/** Calls, article reads and other counts for one publisher. */
export interface CallCounts {
  publisherId: string;
  publisherName: string;
  calls: number;
  reads: number;
}

/** Counts calls (protocol traces excluded) by `identities` since `since` (ms), per publisher. */
export async function callsByPublisher(
  db: Client,
  identities: string[],
  options: { since: number },
): Promise<CallCounts[]> {
  if (identities.length === 0) return [];
  const marks = identities.map(() => "?").join(", ");
  const rs = await db.execute({
    sql: `SELECT l.publisher_id, p.name, COUNT(*) AS calls,
            SUM(CASE WHEN l.tool LIKE '%get_article' THEN 1 ELSE 0 END) AS reads
          FROM call_log l JOIN publishers p ON p.id = l.publisher_id
          WHERE l.identity IN (${marks}) AND l.at >= ? AND l.status != 'trace'
          GROUP BY l.publisher_id ORDER BY p.name, l.publisher_id`,
    args: [...identities, options.since],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    publisherName: String(r.name),
    calls: Number(r.calls),
    reads: Number(r.reads),
  }));
}

/** Calls and article reads on one UTC day ("YYYY-MM-DD"). */
export interface DayCounts {
  day: string;
  calls: number;
  reads: number;
}

/** Counts calls (protocol traces excluded) by `identities` since `since` (ms), per UTC day. */
export async function callsByDay(
  db: Client,
  identities: string[],
  options: { since: number },
): Promise<DayCounts[]> {
  if (identities.length === 0) return [];
  const marks = identities.map(() => "?").join(", ");
  const rs = await db.execute({
    sql: `SELECT date(l.at / 1000, 'unixepoch') AS day, COUNT(*) AS calls,
            SUM(CASE WHEN l.tool LIKE '%get_article' THEN 1 ELSE 0 END) AS reads
          FROM call_log l
          WHERE l.identity IN (${marks}) AND l.at >= ? AND l.status != 'trace'
          GROUP BY day ORDER BY day`,
    args: [...identities, options.since],
  });
  return rs.rows.map((r) => ({
    day: String(r.day),
    calls: Number(r.calls),
    reads: Number(r.reads),
  }));
}
