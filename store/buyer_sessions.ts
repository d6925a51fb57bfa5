/** Persistence of buyer portal sessions (buyers signed in with a cookie), by token hash only. */
import { type Buyer, buyerOfRow } from "./buyers.ts";
import type { Client } from "./db.ts";

/** How a session was opened: with the account's password, or with its API key. */
export type SessionVia = "password" | "key";

/** A live buyer session. */
export interface BuyerSession {
  tokenHash: string;
  buyerId: string;
  csrfToken: string;
  via: SessionVia;
  expiresAt: number;
}

/** Stores a new session under the hash of its cookie token; the buyer's expired ones go. */
export async function insertBuyerSession(
  db: Client,
  s: BuyerSession & { now: Date },
): Promise<void> {
  const now = s.now.getTime();
  await db.batch([
    {
      sql: "DELETE FROM buyer_sessions WHERE buyer_id = ? AND expires_at <= ?",
      args: [s.buyerId, now],
    },
    {
      sql: `INSERT INTO buyer_sessions (token_hash, buyer_id, csrf_token, via, created_at,
              expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
      args: [s.tokenHash, s.buyerId, s.csrfToken, s.via, now, s.expiresAt],
    },
  ], "write");
}

/** The unexpired session with this token hash, and its buyer. */
export async function findBuyerSession(
  db: Client,
  tokenHash: string,
  options: { now: Date },
): Promise<{ session: BuyerSession; buyer: Buyer } | null> {
  const rs = await db.execute({
    sql: `SELECT b.*, s.csrf_token, s.via, s.expires_at
          FROM buyer_sessions s JOIN buyers b ON b.id = s.buyer_id
          WHERE s.token_hash = ? AND s.expires_at > ?`,
    args: [tokenHash, options.now.getTime()],
  });
  const r = rs.rows[0];
  if (!r) return null;
  return {
    session: {
      tokenHash,
      buyerId: String(r.id),
      csrfToken: String(r.csrf_token),
      via: String(r.via) as SessionVia,
      expiresAt: Number(r.expires_at),
    },
    buyer: buyerOfRow(r),
  };
}

/** Ends a session. */
export async function deleteBuyerSession(db: Client, tokenHash: string): Promise<void> {
  await db.execute({ sql: "DELETE FROM buyer_sessions WHERE token_hash = ?", args: [tokenHash] });
}
