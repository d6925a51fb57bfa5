/** Persistence of buyers, their API keys and their virtual OAuth client. */
import type { Client } from "./db.ts";

/** A buyer account. */
export interface Buyer {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

/** Inserts a buyer, its first key hash and its virtual client `buyer:<id>`, atomically. */
export async function insertBuyer(
  db: Client,
  buyer: { id: string; name: string; email: string },
  key: { id: string; hash: string; hint: string; now: Date },
): Promise<void> {
  const now = key.now.getTime();
  await db.batch([
    {
      sql: "INSERT INTO buyers (id, name, email, created_at) VALUES (?, ?, ?, ?)",
      args: [buyer.id, buyer.name, buyer.email, now],
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

/** Revokes every live key of the buyer and stores a new one, in one transaction. */
export async function replaceBuyerKey(
  db: Client,
  buyerId: string,
  key: { id: string; hash: string; hint: string; now: Date },
): Promise<void> {
  const now = key.now.getTime();
  await db.batch([
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
export async function findBuyerByKeyHash(db: Client, hash: string): Promise<Buyer | null> {
  const rs = await db.execute({
    sql: `SELECT b.* FROM buyer_keys k JOIN buyers b ON b.id = k.buyer_id
          WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    args: [hash],
  });
  return rs.rows[0] ? toBuyer(rs.rows[0]) : null;
}

// deno-lint-ignore no-explicit-any
function toBuyer(r: any): Buyer {
  return {
    id: String(r.id),
    name: String(r.name),
    email: String(r.email),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}
