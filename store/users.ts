/** Persistence of publisher users (dashboard logins) and the sign-up/login attempt throttle. */
import type { InStatement } from "@libsql/client";
import type { Client } from "./db.ts";

/** Longest throttle window; counters older than this are dropped. */
export const THROTTLE_MAX_WINDOW_MS = 86_400_000;

/** A person who signs in to a publisher's dashboard. */
export interface PublisherUser {
  id: string;
  publisherId: string;
  email: string;
  /** Self-describing PBKDF2 hash (server/manage/passwords.ts); never the password. */
  passwordHash: string;
}

/** The statement inserting a user, for a batch that creates the publisher at the same time. */
export function userInsert(user: PublisherUser, options: { now: Date }): InStatement {
  return {
    sql: `INSERT INTO publisher_users (id, publisher_id, email, password_hash, created_at)
          VALUES (?, ?, ?, ?, ?)`,
    args: [
      user.id,
      user.publisherId,
      user.email.toLowerCase(),
      user.passwordHash,
      options.now.getTime(),
    ],
  };
}

/** The user with this email (case-insensitive), or null. */
export async function findUserByEmail(db: Client, email: string): Promise<PublisherUser | null> {
  const rs = await db.execute({
    sql: "SELECT id, publisher_id, email, password_hash FROM publisher_users WHERE email = ?",
    args: [email.toLowerCase()],
  });
  const r = rs.rows[0];
  return r
    ? {
      id: String(r.id),
      publisherId: String(r.publisher_id),
      email: String(r.email),
      passwordHash: String(r.password_hash),
    }
    : null;
}

/** The email a user signs in with, or null when the user is gone. */
export async function userEmail(db: Client, userId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT email FROM publisher_users WHERE id = ?",
    args: [userId],
  });
  return rs.rows[0] ? String(rs.rows[0].email) : null;
}

/**
 * Counts one attempt under `key` in a fixed window (at most THROTTLE_MAX_WINDOW_MS long); returns
 * the count so far in this window and when the window ends (ms since the epoch).
 */
export async function hitThrottle(
  db: Client,
  key: string,
  options: { now: Date; windowMs: number },
): Promise<{ count: number; resetAt: number }> {
  const t = options.now.getTime();
  const start = t - (t % options.windowMs);
  const rs = await db.execute({
    sql: `INSERT INTO auth_throttle (key, window_start, count) VALUES (?, ?, 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN auth_throttle.window_start = excluded.window_start
              THEN auth_throttle.count + 1 ELSE 1 END,
            window_start = excluded.window_start
          RETURNING count`,
    args: [key, start],
  });
  const count = Number(rs.rows[0].count);
  // A key's first attempt in a window is a cheap moment to drop counters of windows long gone.
  if (count === 1) {
    await db.execute({
      sql: "DELETE FROM auth_throttle WHERE window_start < ?",
      args: [t - THROTTLE_MAX_WINDOW_MS],
    });
  }
  return { count, resetAt: start + options.windowMs };
}
