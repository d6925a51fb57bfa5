/** Persistence of fetched robots.txt files per publisher and origin. */
import type { Client } from "./db.ts";

/** A stored robots.txt fetch: `status` 0 means the fetch timed out or could not connect. */
export interface RobotsRecord {
  origin: string;
  body: string | null;
  status: number;
  fetchedAt: number;
  lastOkAt: number | null;
}

/** The last fetch of `origin`'s robots.txt for a publisher, if any. */
export async function getRobots(
  db: Client,
  publisherId: string,
  origin: string,
): Promise<RobotsRecord | null> {
  const rs = await db.execute({
    sql: `SELECT origin, body, status, fetched_at, last_ok_at FROM robots
          WHERE publisher_id = ? AND origin = ?`,
    args: [publisherId, origin],
  });
  return rs.rows[0] ? toRecord(rs.rows[0]) : null;
}

/**
 * Stores a fetch. A failed fetch (5xx, timeout) keeps nothing of the last good body: the verdict
 * for a failing host is "disallow all" until a later success (docs/TEST-PLAN.md section 4, case 16).
 */
export async function putRobots(
  db: Client,
  publisherId: string,
  rec: { origin: string; body: string | null; status: number; now: Date; ok: boolean },
): Promise<void> {
  const now = rec.now.getTime();
  await db.execute({
    sql: `INSERT INTO robots (publisher_id, origin, body, status, fetched_at, last_ok_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (publisher_id, origin) DO UPDATE SET body = excluded.body,
            status = excluded.status, fetched_at = excluded.fetched_at,
            last_ok_at = COALESCE(excluded.last_ok_at, robots.last_ok_at)`,
    args: [publisherId, rec.origin, rec.body, rec.status, now, rec.ok ? now : null],
  });
}

/**
 * Every stored (publisher, origin) pair due for a refetch: its last fetch answered before
 * `answeredBefore`, or failed before `failedBefore`. A fetch failed when it did not set
 * `last_ok_at` (putRobots sets it to `fetched_at` on every usable answer).
 */
export async function staleRobots(
  db: Client,
  opts: { answeredBefore: Date; failedBefore: Date; limit: number },
): Promise<{ publisherId: string; origin: string }[]> {
  const rs = await db.execute({
    sql: `SELECT publisher_id, origin FROM robots
          WHERE fetched_at < ? OR (fetched_at < ? AND last_ok_at IS NOT fetched_at)
          ORDER BY fetched_at LIMIT ?`,
    args: [opts.answeredBefore.getTime(), opts.failedBefore.getTime(), opts.limit],
  });
  return rs.rows.map((r) => ({ publisherId: String(r.publisher_id), origin: String(r.origin) }));
}

// deno-lint-ignore no-explicit-any
function toRecord(r: any): RobotsRecord {
  return {
    origin: String(r.origin),
    body: r.body === null ? null : String(r.body),
    status: Number(r.status ?? 0),
    fetchedAt: Number(r.fetched_at),
    lastOkAt: r.last_ok_at === null ? null : Number(r.last_ok_at),
  };
}
