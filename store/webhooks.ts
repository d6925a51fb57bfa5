/**
 * Persistence of webhooks (migration 0043, docs/decisions/webhooks.md): endpoints per owner and
 * events with their fan-out to deliveries; the queue and its log are in webhook_deliveries.ts.
 * Every query names the owner, so one publisher or buyer never reaches another's endpoints. Times
 * are epoch milliseconds.
 */
import { type Client, type Executor, inWriteTx } from "./db.ts";
import type { Row } from "@libsql/client";

/** Whose endpoint or event: a publisher or a buyer. */
export interface Owner {
  kind: "publisher" | "buyer";
  id: string;
}

/** A stored endpoint (the secret included: the sender signs with it). */
export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: string[];
  secret: string;
  createdAt: number;
  rotatedAt: number | null;
}

const ENDPOINT_COLUMNS = "id, url, description, events, secret, created_at, rotated_at";
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toEndpoint(r: Row): EndpointRow {
  return {
    id: String(r.id),
    url: String(r.url),
    description: String(r.description),
    events: JSON.parse(String(r.events)),
    secret: String(r.secret),
    createdAt: Number(r.created_at),
    rotatedAt: num(r.rotated_at),
  };
}

/** Stores a new endpoint. */
export async function insertEndpoint(
  db: Client,
  owner: Owner,
  e: { id: string; url: string; description: string; events: string[]; secret: string; now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO webhook_endpoints
            (id, owner_kind, owner_id, url, description, events, secret, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      e.id,
      owner.kind,
      owner.id,
      e.url,
      e.description,
      JSON.stringify(e.events),
      e.secret,
      e.now.getTime(),
    ],
  });
}

/** The owner's endpoints, oldest first. */
export async function listEndpoints(db: Client, owner: Owner): Promise<EndpointRow[]> {
  const rs = await db.execute({
    sql: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
          WHERE owner_kind = ? AND owner_id = ? ORDER BY created_at, id`,
    args: [owner.kind, owner.id],
  });
  return rs.rows.map(toEndpoint);
}

/** How many endpoints the owner has. */
export async function countEndpoints(db: Client, owner: Owner): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE owner_kind = ? AND owner_id = ?",
    args: [owner.kind, owner.id],
  });
  return Number(rs.rows[0].n);
}

/** One of the owner's endpoints, or null. */
export async function getEndpoint(db: Client, owner: Owner, id: string) {
  const rs = await db.execute({
    sql: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
          WHERE owner_kind = ? AND owner_id = ? AND id = ?`,
    args: [owner.kind, owner.id, id],
  });
  return rs.rows[0] ? toEndpoint(rs.rows[0]) : null;
}

/** Deletes an endpoint and its deliveries; false when the owner has no such endpoint. */
export async function deleteEndpoint(db: Client, owner: Owner, id: string): Promise<boolean> {
  // Explicit rather than by ON DELETE CASCADE, which holds only where foreign keys are enforced.
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: "DELETE FROM webhook_endpoints WHERE owner_kind = ? AND owner_id = ? AND id = ?",
      args: [owner.kind, owner.id, id],
    });
    if (rs.rowsAffected === 0) return false;
    await tx.execute({
      sql: `DELETE FROM webhook_attempts WHERE delivery_id IN
              (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)`,
      args: [id],
    });
    await tx.execute({ sql: "DELETE FROM webhook_deliveries WHERE endpoint_id = ?", args: [id] });
    return true;
  });
}

/** Replaces an endpoint's signing secret; false when the owner has no such endpoint. */
export async function replaceSecret(
  db: Client,
  owner: Owner,
  id: string,
  change: { secret: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE webhook_endpoints SET secret = ?, rotated_at = ?
          WHERE owner_kind = ? AND owner_id = ? AND id = ?`,
    args: [change.secret, change.now.getTime(), owner.kind, owner.id, id],
  });
  return rs.rowsAffected > 0;
}

/**
 * Writes an event and queues one delivery to each of the owner's endpoints subscribed to its type
 * (or to every type, `*`), or to `only` that endpoint (a test event). An event whose `dedupe` key
 * the owner already has is not written again: the answer is then 0 deliveries, `written` false.
 */
export async function insertEvent(
  db: Executor,
  owner: Owner,
  e: { id: string; type: string; payload: string; dedupe: string | null; now: Date },
  only?: string,
): Promise<{ written: boolean; deliveries: number }> {
  const at = e.now.getTime();
  const ins = await db.execute({
    sql: `INSERT INTO webhook_events (id, owner_kind, owner_id, type, payload, dedupe, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    args: [e.id, owner.kind, owner.id, e.type, e.payload, e.dedupe, at],
  });
  if (ins.rowsAffected === 0) return { written: false, deliveries: 0 };
  const rs = await db.execute({
    sql: `INSERT INTO webhook_deliveries
            (id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
          SELECT 'whd_' || lower(hex(randomblob(10))), ep.id, ?, 'pending', ?, ?, ?
            FROM webhook_endpoints ep
           WHERE ep.owner_kind = ? AND ep.owner_id = ? AND ${
      only === undefined
        ? "EXISTS (SELECT 1 FROM json_each(ep.events) WHERE value IN (?, '*'))"
        : "ep.id = ?"
    }`,
    args: [e.id, at, at, at, owner.kind, owner.id, only ?? e.type],
  });
  return { written: true, deliveries: rs.rowsAffected };
}

/** Whether an owner has any endpoint subscribed to `type`. */
export async function subscribed(db: Executor, owner: Owner, type: string): Promise<boolean> {
  const rs = await db.execute({
    sql: `SELECT 1 FROM webhook_endpoints ep WHERE ep.owner_kind = ? AND ep.owner_id = ?
            AND EXISTS (SELECT 1 FROM json_each(ep.events) WHERE value IN (?, '*')) LIMIT 1`,
    args: [owner.kind, owner.id, type],
  });
  return rs.rows.length > 0;
}
