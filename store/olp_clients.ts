/**
 * RSL license-server (OLP) client credentials (migration 0080): one client per buyer, the secret
 * kept as its hash (server/platform/secrets.ts), replaced on rotation.
 */
import type { Client } from "./db.ts";

/** A buyer's OLP client, without its secret. */
export interface OlpClient {
  clientId: string;
  buyerId: string;
  createdAt: string;
  rotatedAt: string;
}

function clientOf(r: Record<string, unknown>): OlpClient {
  return {
    clientId: String(r.client_id),
    buyerId: String(r.buyer_id),
    createdAt: new Date(Number(r.created_at)).toISOString(),
    rotatedAt: new Date(Number(r.rotated_at)).toISOString(),
  };
}

/** The buyer's client, or null when it has none yet. */
export async function olpClientOfBuyer(db: Client, buyerId: string): Promise<OlpClient | null> {
  const rs = await db.execute({
    sql: "SELECT client_id, buyer_id, created_at, rotated_at FROM olp_clients WHERE buyer_id = ?",
    args: [buyerId],
  });
  return rs.rows[0] ? clientOf(rs.rows[0]) : null;
}

/** The client whose id and secret hash are these, or null (unknown id, wrong or old secret). */
export async function olpClientByCredentials(
  db: Client,
  clientId: string,
  secretHash: string,
): Promise<OlpClient | null> {
  const rs = await db.execute({
    sql: `SELECT client_id, buyer_id, created_at, rotated_at FROM olp_clients
          WHERE client_id = ? AND secret_hash = ?`,
    args: [clientId, secretHash],
  });
  return rs.rows[0] ? clientOf(rs.rows[0]) : null;
}

/**
 * Issues the buyer's client with `secretHash`, or rotates its secret (the old one stops working at
 * once). `clientId` is used only when the buyer has no client yet. One statement: two racing
 * issues leave one client with the last secret.
 */
export async function issueOlpSecret(
  db: Client,
  buyerId: string,
  options: { clientId: string; secretHash: string; now: Date },
): Promise<OlpClient> {
  const now = options.now.getTime();
  const rs = await db.execute({
    sql: `INSERT INTO olp_clients (client_id, buyer_id, secret_hash, created_at, rotated_at)
          VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (buyer_id) DO UPDATE SET secret_hash = excluded.secret_hash,
            rotated_at = excluded.rotated_at
          RETURNING client_id, buyer_id, created_at, rotated_at`,
    args: [options.clientId, buyerId, options.secretHash, now, now],
  });
  return clientOf(rs.rows[0]);
}
