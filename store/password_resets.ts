/**
 * Password reset links (migration 0055, docs/decisions/email.md): each is the SHA-256 of a token
 * for one account of one kind, single-use and valid until `expires_at`; and the accounts a reset
 * can reach, by the email they sign in with. Times are epoch milliseconds.
 */
import type { Client, Executor } from "./db.ts";

/** An account a reset link can be for: whom it mails (`ownerId`) and at which address. */
export interface ResettableAccount {
  accountId: string;
  ownerId: string;
  email: string;
}

/** Stores a new link for an account. */
export async function insertReset(
  db: Executor,
  r: { tokenHash: string; kind: string; accountId: string; expiresAt: number; now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO password_resets (token_hash, account_kind, account_id, expires_at, created_at)
          VALUES (?, ?, ?, ?, ?)`,
    args: [r.tokenHash, r.kind, r.accountId, r.expiresAt, r.now.getTime()],
  });
}

/**
 * Uses the link: marks it used if it is this kind's, unused and unexpired, and answers its
 * account, or null (one conditional update, so two clicks cannot both use it). Every other
 * unused link of the account is spent with it.
 */
export async function useReset(
  db: Executor,
  r: { tokenHash: string; kind: string; now: Date },
): Promise<string | null> {
  const now = r.now.getTime();
  const rs = await db.execute({
    sql: `UPDATE password_resets SET used_at = ?
          WHERE token_hash = ? AND account_kind = ? AND used_at IS NULL AND expires_at > ?
          RETURNING account_id`,
    args: [now, r.tokenHash, r.kind, now],
  });
  const accountId = rs.rows[0] ? String(rs.rows[0].account_id) : null;
  if (accountId !== null) {
    await db.execute({
      sql: `UPDATE password_resets SET used_at = ?
            WHERE account_kind = ? AND account_id = ? AND used_at IS NULL`,
      args: [now, r.kind, accountId],
    });
  }
  return accountId;
}

/** Drops links that ended long ago (a day past expiry), so the table stays small. */
export async function pruneResets(db: Executor, now: Date): Promise<void> {
  await db.execute({
    sql: "DELETE FROM password_resets WHERE expires_at < ?",
    args: [now.getTime() - 86_400_000],
  });
}

/** The publisher console user who signs in with this email (at most one). */
export async function publisherUsersByEmail(
  db: Client,
  email: string,
): Promise<ResettableAccount[]> {
  const rs = await db.execute({
    sql: "SELECT id, publisher_id, email FROM publisher_users WHERE email = lower(?)",
    args: [email],
  });
  return rs.rows.map((r) => ({
    accountId: String(r.id),
    ownerId: String(r.publisher_id),
    email: String(r.email),
  }));
}

/** A console user's new password; every session of the user ends. */
export async function setPublisherUserPassword(
  db: Executor,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.execute({
    sql: "UPDATE publisher_users SET password_hash = ? WHERE id = ?",
    args: [passwordHash, userId],
  });
  await db.execute({ sql: "DELETE FROM dashboard_sessions WHERE user_id = ?", args: [userId] });
}

/**
 * The buyer accounts of this email (any case): usually one; accounts that shared an email before
 * migration 0011 may add more, each reset on its own.
 */
export async function buyersByEmail(db: Client, email: string): Promise<ResettableAccount[]> {
  const rs = await db.execute({
    sql: "SELECT id, email FROM buyers WHERE email = ? COLLATE NOCASE ORDER BY created_at, id",
    args: [email],
  });
  return rs.rows.map((r) => ({
    accountId: String(r.id),
    ownerId: String(r.id),
    email: String(r.email),
  }));
}

/** A buyer's new password; every session of the account ends. */
export async function setBuyerResetPassword(
  db: Executor,
  buyerId: string,
  passwordHash: string,
): Promise<void> {
  await db.execute({
    sql: "UPDATE buyers SET password_hash = ? WHERE id = ?",
    args: [passwordHash, buyerId],
  });
  await db.execute({ sql: "DELETE FROM buyer_sessions WHERE buyer_id = ?", args: [buyerId] });
}
