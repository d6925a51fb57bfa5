/** Persistence of the OAuth clients a buyer registered (POST /api/marketplace/clients). */
import type { Client, Executor } from "./db.ts";

/** An OAuth client bound to a buyer. */
export interface BuyerClient {
  clientId: string;
  kind: "dynamic" | "buyer";
  name: string | null;
  email: string | null;
  createdAt: string;
}

/** Outcome of binding a client to a buyer. */
export type BindResult = "bound" | "already_bound" | "unknown_client" | "bound_elsewhere";

/**
 * Binds a dynamically registered client to the buyer, unless another buyer holds it. A conditional
 * UPDATE, so two buyers racing for one client cannot both win.
 */
export async function bindClient(
  db: Executor,
  buyerId: string,
  clientId: string,
): Promise<BindResult> {
  const rs = await db.execute({
    sql: `UPDATE oauth_clients SET buyer_id = ?
          WHERE id = ? AND kind = 'dynamic' AND revoked_at IS NULL AND buyer_id IS NULL`,
    args: [buyerId, clientId],
  });
  if (rs.rowsAffected === 1) return "bound";
  const row = await db.execute({
    sql: "SELECT buyer_id, kind, revoked_at FROM oauth_clients WHERE id = ?",
    args: [clientId],
  });
  const r = row.rows[0];
  if (!r || r.revoked_at !== null) return "unknown_client";
  if (String(r.kind) === "buyer") {
    return r.buyer_id === buyerId ? "already_bound" : "unknown_client";
  }
  return r.buyer_id === buyerId ? "already_bound" : "bound_elsewhere";
}

/** The buyer a client bills to, or null. */
export async function buyerOfClient(db: Executor, clientId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT buyer_id FROM oauth_clients WHERE id = ? AND revoked_at IS NULL",
    args: [clientId],
  });
  const v = rs.rows[0]?.buyer_id;
  return v === null || v === undefined ? null : String(v);
}

/** The buyer's clients: its virtual `buyer:<id>` client first, then registered installs. */
export async function listBuyerClients(db: Client, buyerId: string): Promise<BuyerClient[]> {
  const rs = await db.execute({
    sql: `SELECT id, kind, name, email, created_at FROM oauth_clients
          WHERE buyer_id = ? AND revoked_at IS NULL
          ORDER BY kind = 'buyer' DESC, created_at, id`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    clientId: String(r.id),
    kind: String(r.kind) as BuyerClient["kind"],
    name: r.name === null ? null : String(r.name),
    email: r.email === null ? null : String(r.email),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  }));
}

/** Every identity whose traffic bills to the buyer: `buyer:<id>` and `oauth:<clientId>`. */
export async function identitiesOfBuyer(db: Client, buyerId: string): Promise<string[]> {
  const clients = await listBuyerClients(db, buyerId);
  return [
    `buyer:${buyerId}`,
    ...clients.filter((c) => c.kind === "dynamic").map((c) => `oauth:${c.clientId}`),
  ];
}
