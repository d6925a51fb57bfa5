/** Persistence of dashboard sessions (publisher users logged in with a cookie). */
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

/** The unexpired session with this token hash. */
export async function findSession(
  db: Client,
  tokenHash: string,
  options: { now: Date },
): Promise<DashboardSession | null> {
  const rs = await db.execute({
    sql: `SELECT publisher_id, user_id, csrf_token, expires_at FROM dashboard_sessions
          WHERE token_hash = ? AND expires_at > ?`,
    args: [tokenHash, options.now.getTime()],
  });
  const r = rs.rows[0];
  return r
    ? {
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
