/** Web Bot Auth key directories buyers registered: a verified signature from one is that buyer. */
import type { Client } from "./db.ts";

/** The buyer that registered `agent` (an origin such as https://bot.example), or null. */
export async function buyerOfSignatureAgent(db: Client, agent: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT buyer_id FROM buyer_signature_agents WHERE agent = ?",
    args: [agent],
  });
  return rs.rows[0] ? String(rs.rows[0].buyer_id) : null;
}

/** The agents a buyer registered, oldest first. */
export async function listSignatureAgents(
  db: Client,
  buyerId: string,
): Promise<{ agent: string; createdAt: string }[]> {
  const rs = await db.execute({
    sql: `SELECT agent, created_at FROM buyer_signature_agents WHERE buyer_id = ?
          ORDER BY created_at, agent`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    agent: String(r.agent),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  }));
}

/**
 * Registers `agent` for the buyer. False when another buyer holds it: a directory speaks for one
 * buyer, so the first to register it keeps it until it removes it.
 */
export async function addSignatureAgent(
  db: Client,
  buyerId: string,
  agent: string,
  options: { now: Date },
): Promise<boolean> {
  await db.execute({
    sql: `INSERT INTO buyer_signature_agents (agent, buyer_id, created_at) VALUES (?, ?, ?)
          ON CONFLICT (agent) DO NOTHING`,
    args: [agent, buyerId, options.now.getTime()],
  });
  return (await buyerOfSignatureAgent(db, agent)) === buyerId;
}

/** Removes the buyer's registration of `agent`; false when it had none. */
export async function removeSignatureAgent(
  db: Client,
  buyerId: string,
  agent: string,
): Promise<boolean> {
  const rs = await db.execute({
    sql: "DELETE FROM buyer_signature_agents WHERE agent = ? AND buyer_id = ?",
    args: [agent, buyerId],
  });
  return rs.rowsAffected > 0;
}
