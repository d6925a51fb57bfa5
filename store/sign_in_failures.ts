/**
 * Failed sign-ins per (client address, account) (issue 28, migration 0024): each counted attempt
 * waits a delay that doubles past a few free failures, and the count decays while the pair is quiet.
 * One statement decides and counts, so parallel attempts cannot all slip through one free moment.
 */
import type { Client } from "./db.ts";
import { THROTTLE_MAX_WINDOW_MS } from "./users.ts";

/** How failures turn into waiting. */
export interface DelayRule {
  /** Failures counted before any delay (typos). */
  free: number;
  /** The wait after the first failure past `free`; each later one doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** One failure is forgiven per this many quiet milliseconds. */
  decayMs: number;
  /** The most failures remembered, so every row decays away within a day. */
  cap: number;
}

// The stored count decayed to now, plus this attempt. SET expressions all read the old row; the
// casts keep the arithmetic integral whichever way a driver binds a JavaScript number.
const DECAYED = "MAX(0, failures - CAST((:now - counted_at) / :decay AS INTEGER))";
const COUNTED = `MIN(:cap, ${DECAYED} + 1)`;
const delayOf = (n: string) =>
  `CASE WHEN ${n} <= :free THEN 0 ELSE MIN(:maxDelay, CAST(:firstDelay AS INTEGER) << CAST(${n} - :free - 1 AS INTEGER)) END`;

/**
 * Counts one attempt under `key` unless its pair must still wait: `allowed` false (and nothing
 * counted) before `retryAt`, the instant in ms since the epoch when the next attempt is checked.
 */
export async function takeSignInAttempt(
  db: Client,
  key: string,
  rule: DelayRule,
  options: { now: Date },
): Promise<{ allowed: boolean; retryAt: number }> {
  const now = options.now.getTime();
  const args = {
    ":key": key,
    ":now": now,
    ":decay": rule.decayMs,
    ":cap": rule.cap,
    ":free": rule.free,
    ":maxDelay": rule.maxDelayMs,
    ":firstDelay": rule.firstDelayMs,
  };
  const rs = await db.execute({
    sql: `INSERT INTO sign_in_failures (key, failures, counted_at, retry_at)
          VALUES (:key, 1, :now, :now + ${delayOf("1")})
          ON CONFLICT (key) DO UPDATE SET
            failures = ${COUNTED},
            counted_at = :now,
            retry_at = :now + ${delayOf(COUNTED)}
          WHERE sign_in_failures.retry_at <= :now
          RETURNING failures, retry_at`,
    args,
  });
  const row = rs.rows[0];
  if (row) {
    // A pair's first failure is a cheap moment to drop rows that have long decayed to nothing.
    if (Number(row.failures) === 1) await dropDecayed(db, now);
    return { allowed: true, retryAt: Number(row.retry_at) };
  }
  const waiting = await db.execute({
    sql: "SELECT retry_at FROM sign_in_failures WHERE key = ?",
    args: [key],
  });
  return { allowed: false, retryAt: Number(waiting.rows[0]?.retry_at ?? now) };
}

/** Forgets the pair's failures (its sign-in succeeded). */
export async function clearSignInFailures(db: Client, key: string): Promise<void> {
  await db.execute({ sql: "DELETE FROM sign_in_failures WHERE key = ?", args: [key] });
}

async function dropDecayed(db: Client, now: number): Promise<void> {
  await db.execute({
    sql: "DELETE FROM sign_in_failures WHERE counted_at < ?",
    args: [now - THROTTLE_MAX_WINDOW_MS],
  });
}
