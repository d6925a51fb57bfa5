/** Persistence of dashboard sessions (publisher users logged in with a cookie). */
import type { InStatement } from "@libsql/client";
import type { Client } from "./db.ts";

/** A live dashboard session. */
export interface DashboardSession {
  publisherId: string;
  userId: string;
  csrfToken: string;
  expiresAt: number;
}

/** Stores a new session under the hash of its cookie token. */
export async function insertSession(
  db: Client,
  tokenHash: string,
  s: DashboardSession & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO dashboard_sessions (token_hash, publisher_id, user_id, csrf_token, created_at,
            expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    args: [tokenHash, s.publisherId, s.userId, s.csrfToken, s.now.getTime(), s.expiresAt],
  });
}

/** A session found by its cookie, with the hash it is stored under. */
export type LiveSession = DashboardSession & { tokenHash: string };

/** The unexpired session with this token hash. */
export async function findSession(
  db: Client,
  tokenHash: string,
  options: { now: Date },
): Promise<LiveSession | null> {
  const rs = await db.execute({
    sql: `SELECT publisher_id, user_id, csrf_token, expires_at FROM dashboard_sessions
          WHERE token_hash = ? AND expires_at > ?`,
    args: [tokenHash, options.now.getTime()],
  });
  const r = rs.rows[0];
  return r
    ? {
      tokenHash,
      publisherId: String(r.publisher_id),
      userId: String(r.user_id),
      csrfToken: String(r.csrf_token),
      expiresAt: Number(r.expires_at),
    }
    : null;
}

/** Ends a session. */
export async function deleteSession(db: Client, tokenHash: string): Promise<void> {
  await db.execute({
    sql: "DELETE FROM dashboard_sessions WHERE token_hash = ?",
    args: [tokenHash],
  });
}

/**
 * The statement ending a publisher's sessions (only `userId`'s when given) except the one stored
 * under `keep`: after a password change or a key rotation (issue 28).
 */
export function endSessionsStatement(
  publisherId: string,
  options: { userId?: string; keep: string | null },
): InStatement {
  return options.userId === undefined
    ? {
      sql: "DELETE FROM dashboard_sessions WHERE publisher_id = ? AND token_hash != ?",
      args: [publisherId, options.keep ?? ""],
    }
    : {
      sql: `DELETE FROM dashboard_sessions WHERE publisher_id = ? AND user_id = ?
              AND token_hash != ?`,
      args: [publisherId, options.userId, options.keep ?? ""],
    };
}
