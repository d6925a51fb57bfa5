/** Persistence of publisher users (dashboard logins) and the sign-up/login attempt throttle. */
import type { InStatement } from "@libsql/client";
import type { Client } from "./db.ts";
import { endSessionsStatement } from "./sessions.ts";

/** Longest throttle window; counters older than this are dropped. */
export const THROTTLE_MAX_WINDOW_MS = 86_400_000;

/** A person who signs in to a publisher's dashboard. */
export interface PublisherUser {
  id: string;
  publisherId: string;
  email: string;
  /** Self-describing PBKDF2 hash (server/domain/accounts/passwords.ts); never the password. */
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
  return rs.rows[0] ? userOfRow(rs.rows[0]) : null;
}

/**
 * A dashboard user of the publisher: `userId`'s (a session's), or without one the publisher's
 * first (the owner made at sign-up; a key speaks for the publisher, not for one user).
 */
export async function publisherUser(
  db: Client,
  publisherId: string,
  userId: string | null,
): Promise<PublisherUser | null> {
  const rs = await db.execute({
    sql: `SELECT id, publisher_id, email, password_hash FROM publisher_users
          WHERE publisher_id = ? AND (? IS NULL OR id = ?) ORDER BY created_at, id LIMIT 1`,
    args: [publisherId, userId, userId],
  });
  return rs.rows[0] ? userOfRow(rs.rows[0]) : null;
}

/**
 * Stores a user's new password hash and ends the user's other sessions (all but `keepSession`,
 * the hash of the session asking, if any), in one transaction.
 */
export async function setUserPassword(
  db: Client,
  user: Pick<PublisherUser, "id" | "publisherId">,
  passwordHash: string,
  options: { keepSession: string | null },
): Promise<void> {
  await db.batch([
    {
      sql: "UPDATE publisher_users SET password_hash = ? WHERE id = ?",
      args: [passwordHash, user.id],
    },
    endSessionsStatement(user.publisherId, { userId: user.id, keep: options.keepSession }),
  ], "write");
}

/** The email a user signs in with, or null when the user is gone. */
export async function userEmail(db: Client, userId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT email FROM publisher_users WHERE id = ?",
    args: [userId],
  });
  return rs.rows[0] ? String(rs.rows[0].email) : null;
}

function userOfRow(r: Record<string, unknown>): PublisherUser {
  return {
    id: String(r.id),
    publisherId: String(r.publisher_id),
    email: String(r.email),
    passwordHash: String(r.password_hash),
  };
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
