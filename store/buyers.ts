/** Persistence of buyers, their API keys and their virtual OAuth client. */
import type { Client, Executor } from "./db.ts";
import { cachedConfig } from "./config_cache.ts";

/** A buyer account. */
export interface Buyer {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

/**
 * Inserts a buyer (with its password hash, when it chose one), its first key hash and its virtual
 * client `buyer:<id>`, atomically.
 */
export async function insertBuyer(
  db: Client,
  buyer: { id: string; name: string; email: string; passwordHash?: string | null },
  key: { id: string; hash: string; hint: string; now: Date },
): Promise<void> {
  const now = key.now.getTime();
  await db.batch([
    {
      sql: `INSERT INTO buyers (id, name, email, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?)`,
      args: [buyer.id, buyer.name, buyer.email, buyer.passwordHash ?? null, now],
    },
    {
      sql: `INSERT INTO buyer_keys (id, buyer_id, key_hash, hint, created_at)
            VALUES (?, ?, ?, ?, ?)`,
      args: [key.id, buyer.id, key.hash, key.hint, now],
    },
    {
      sql: `INSERT INTO oauth_clients (id, kind, buyer_id, name, created_at)
            VALUES (?, 'buyer', ?, ?, ?)`,
      args: [`buyer:${buyer.id}`, buyer.id, buyer.name, now],
    },
  ], "write");
}

/**
 * Revokes every live key of the buyer and stores a new one, in one transaction, ending the
 * sessions a key opened except `keepSession` (the hash of the session asking, if one is).
 */
export async function replaceBuyerKey(
  db: Client,
  buyerId: string,
  key: { id: string; hash: string; hint: string; now: Date },
  options: { keepSession?: string | null } = {},
): Promise<void> {
  const now = key.now.getTime();
  await db.batch([
    {
      sql: `DELETE FROM buyer_sessions WHERE buyer_id = ? AND via = 'key' AND token_hash != ?`,
      args: [buyerId, options.keepSession ?? ""],
    },
    {
      sql: "UPDATE buyer_keys SET revoked_at = ? WHERE buyer_id = ? AND revoked_at IS NULL",
      args: [now, buyerId],
    },
    {
      sql: `INSERT INTO buyer_keys (id, buyer_id, key_hash, hint, created_at)
            VALUES (?, ?, ?, ?, ?)`,
      args: [key.id, buyerId, key.hash, key.hint, now],
    },
  ], "write");
}

/** The buyer owning an unrevoked key with this hash. Read from the store on every request, so a
 * rotation is seen by every node at once. */
export function findBuyerByKeyHash(
  db: Client,
  hash: string,
): Promise<Buyer | null> {
  // Cached with the configuration (migration 0017): a rotation or revocation anywhere is seen on
  // the next request. The buyer is shared: callers must not change it.
  return cachedConfig(db, `buyer-key:${hash}`, async () => {
    const rs = await db.execute({
      sql: `SELECT b.* FROM buyer_keys k JOIN buyers b ON b.id = k.buyer_id
            WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
      args: [hash],
    });
    return rs.rows[0] ? buyerOfRow(rs.rows[0]) : null;
  });
}

/** The buyer with this id. */
export async function getBuyer(db: Executor, buyerId: string): Promise<Buyer | null> {
  const rs = await db.execute({ sql: "SELECT * FROM buyers WHERE id = ?", args: [buyerId] });
  return rs.rows[0] ? buyerOfRow(rs.rows[0]) : null;
}

/**
 * The accounts with this email (any case) that have a password, the email's sole account first.
 * Usually one: accounts that shared an email before migration 0011 may add more.
 */
export async function buyersWithPassword(
  db: Client,
  email: string,
): Promise<{ buyer: Buyer; passwordHash: string }[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM buyers WHERE email = ? COLLATE NOCASE AND password_hash IS NOT NULL
          ORDER BY sole IS NULL, created_at, id LIMIT 5`,
    args: [email],
  });
  return rs.rows.map((r) => ({ buyer: buyerOfRow(r), passwordHash: String(r.password_hash) }));
}

/** The buyer's password hash; null when it has set none. */
export async function buyerPasswordHash(db: Client, buyerId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT password_hash FROM buyers WHERE id = ?",
    args: [buyerId],
  });
  const v = rs.rows[0]?.password_hash;
  return v === null || v === undefined ? null : String(v);
}

/**
 * Sets the buyer's password hash and, in the same write, ends every other session of the account
 * (all but `keepSession`, the hash of the session asking, if one is).
 */
export async function setBuyerPassword(
  db: Client,
  buyerId: string,
  passwordHash: string,
  options: { keepSession?: string | null } = {},
): Promise<void> {
  await db.batch([
    { sql: "UPDATE buyers SET password_hash = ? WHERE id = ?", args: [passwordHash, buyerId] },
    {
      sql: "DELETE FROM buyer_sessions WHERE buyer_id = ? AND token_hash != ?",
      args: [buyerId, options.keepSession ?? ""],
    },
  ], "write");
}

/** What the buyer's account page shows besides the buyer: a password or not, the live key's hint. */
export async function buyerAccountFacts(
  db: Client,
  buyerId: string,
): Promise<{ hasPassword: boolean; keyHint: string | null }> {
  const rs = await db.execute({
    sql: `SELECT b.password_hash IS NOT NULL AS has_password,
            (SELECT hint FROM buyer_keys k WHERE k.buyer_id = b.id AND k.revoked_at IS NULL
             ORDER BY k.created_at DESC LIMIT 1) AS hint
          FROM buyers b WHERE b.id = ?`,
    args: [buyerId],
  });
  const r = rs.rows[0];
  return {
    hasPassword: Number(r?.has_password ?? 0) === 1,
    keyHint: r?.hint === null || r?.hint === undefined ? null : String(r.hint),
  };
}

/** A buyer from a row of `buyers` (for queries that join it). */
// deno-lint-ignore no-explicit-any
export function buyerOfRow(r: any): Buyer {
  return {
    id: String(r.id),
    name: String(r.name),
    email: String(r.email),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}
