/**
 * Persistence of webhooks (migration 0043, docs/decisions/webhooks.md): endpoints per owner, events,
 * the delivery queue with its row leases, and the log of attempts. Every query names the owner, so
 * one publisher or buyer never reaches another's endpoints. Times are epoch milliseconds.
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

/** A delivery as the log lists it, with its last attempt. */
export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  state: "pending" | "succeeded" | "failed";
  attempts: number;
  nextAttemptAt: number | null;
  replayOf: string | null;
  createdAt: number;
  lastStatus: number | null;
  lastError: string | null;
}

/** One attempt of a delivery. */
export interface AttemptRow {
  at: number;
  statusCode: number | null;
  latencyMs: number;
  excerpt: string;
  error: string | null;
}

/** A delivery claimed for sending: what to send, where, and with which secret. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  url: string;
  secret: string;
  payload: string;
}

const ENDPOINT_COLUMNS = "id, url, description, events, secret, created_at, rotated_at";
const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, ev.type, d.state, d.attempts,
  d.next_attempt_at, d.replay_of, d.created_at,
  (SELECT status_code FROM webhook_attempts a WHERE a.delivery_id = d.id
    ORDER BY a.at DESC, a.rowid DESC LIMIT 1) AS last_status,
  (SELECT error FROM webhook_attempts a WHERE a.delivery_id = d.id
    ORDER BY a.at DESC, a.rowid DESC LIMIT 1) AS last_error`;
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

function toDelivery(r: Row): DeliveryRow {
  return {
    id: String(r.id),
    endpointId: String(r.endpoint_id),
    eventId: String(r.event_id),
    eventType: String(r.type),
    state: String(r.state) as DeliveryRow["state"],
    attempts: Number(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    replayOf: r.replay_of === null ? null : String(r.replay_of),
    createdAt: Number(r.created_at),
    lastStatus: num(r.last_status),
    lastError: r.last_error === null || r.last_error === undefined ? null : String(r.last_error),
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

/** Queues one more delivery of an owner's event to one of its endpoints (replay, test). */
export async function insertDelivery(
  db: Client,
  d: { id: string; endpointId: string; eventId: string; replayOf: string | null; now: Date },
): Promise<void> {
  const at = d.now.getTime();
  await db.execute({
    sql: `INSERT INTO webhook_deliveries
            (id, endpoint_id, event_id, state, next_attempt_at, replay_of, created_at, updated_at)
          VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)`,
    args: [d.id, d.endpointId, d.eventId, at, d.replayOf, at, at],
  });
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

/** The owners with an endpoint subscribed to `type`, of one kind. */
export async function ownersSubscribed(
  db: Client,
  kind: Owner["kind"],
  type: string,
): Promise<string[]> {
  const rs = await db.execute({
    sql: `SELECT DISTINCT owner_id FROM webhook_endpoints ep WHERE ep.owner_kind = ?
            AND EXISTS (SELECT 1 FROM json_each(ep.events) WHERE value IN (?, '*'))`,
    args: [kind, type],
  });
  return rs.rows.map((r) => String(r.owner_id));
}

/**
 * Leases up to `limit` due deliveries to `holder` until `now + leaseMs`: one conditional update,
 * so two nodes never take the same delivery, and a node that dies mid-send loses it at expiry.
 */
export async function claimDue(
  db: Client,
  o: { holder: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const now = o.now.getTime();
  const claimed = await db.execute({
    sql: `UPDATE webhook_deliveries SET lease_until = ?, leased_by = ?
          WHERE id IN (SELECT id FROM webhook_deliveries
                        WHERE state = 'pending' AND next_attempt_at <= ?
                          AND (lease_until IS NULL OR lease_until <= ?)
                        ORDER BY next_attempt_at, created_at LIMIT ?)
          RETURNING id`,
    args: [now + o.leaseMs, o.holder, now, now, o.limit],
  });
  if (!claimed.rows.length) return [];
  const ids = claimed.rows.map((r) => String(r.id));
  const rs = await db.execute({
    sql: `SELECT d.id, d.attempts, ep.url, ep.secret, ev.payload
            FROM webhook_deliveries d
            JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
            JOIN webhook_events ev ON ev.id = d.event_id
           WHERE d.id IN (${ids.map(() => "?").join(",")}) AND d.leased_by = ?`,
    args: [...ids, o.holder],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    attempts: Number(r.attempts),
    url: String(r.url),
    secret: String(r.secret),
    payload: String(r.payload),
  }));
}

/**
 * Logs an attempt and moves the delivery on: succeeded, failed for good, or pending again at
 * `nextAttemptAt`. Only the lease holder may; false when the lease was lost meanwhile.
 */
export async function recordAttempt(
  db: Client,
  a: AttemptRow & {
    id: string;
    deliveryId: string;
    holder: string;
    state: DeliveryRow["state"];
    nextAttemptAt: number | null;
  },
): Promise<boolean> {
  const tx = await db.transaction("write");
  try {
    const moved = await tx.execute({
      sql: `UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?, next_attempt_at = ?,
              lease_until = NULL, leased_by = NULL, updated_at = ?
            WHERE id = ? AND leased_by = ?`,
      args: [a.state, a.nextAttemptAt, a.at, a.deliveryId, a.holder],
    });
    if (moved.rowsAffected === 0) {
      await tx.rollback();
      return false;
    }
    await tx.execute({
      sql: `INSERT INTO webhook_attempts
              (id, delivery_id, at, status_code, latency_ms, excerpt, error)
            VALUES (?, ?, ?, ?, ?, ?, ?)`,
      args: [a.id, a.deliveryId, a.at, a.statusCode, a.latencyMs, a.excerpt, a.error],
    });
    await tx.commit();
    return true;
  } finally {
    tx.close();
  }
}

/** Hands a leased delivery back untried (shutdown), so the next drain on any node takes it. */
export async function releaseLease(db: Client, id: string, holder: string): Promise<void> {
  await db.execute({
    sql: `UPDATE webhook_deliveries SET lease_until = NULL, leased_by = NULL
          WHERE id = ? AND leased_by = ?`,
    args: [id, holder],
  });
}

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(
  db: Client,
  owner: Owner,
  endpointId: string,
  limit: number,
): Promise<DeliveryRow[]> {
  const rs = await db.execute({
    sql: `SELECT ${DELIVERY_COLUMNS}
            FROM webhook_deliveries d
            JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
            JOIN webhook_events ev ON ev.id = d.event_id
           WHERE ep.owner_kind = ? AND ep.owner_id = ? AND d.endpoint_id = ?
           ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?`,
    args: [owner.kind, owner.id, endpointId, limit],
  });
  return rs.rows.map(toDelivery);
}

/** One of the owner's deliveries with its event payload and attempts, or null. */
export async function getDelivery(db: Client, owner: Owner, id: string) {
  const rs = await db.execute({
    sql: `SELECT ${DELIVERY_COLUMNS}, ev.payload
            FROM webhook_deliveries d
            JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
            JOIN webhook_events ev ON ev.id = d.event_id
           WHERE ep.owner_kind = ? AND ep.owner_id = ? AND d.id = ?`,
    args: [owner.kind, owner.id, id],
  });
  const row = rs.rows[0];
  if (!row) return null;
  const attempts = await db.execute({
    sql: `SELECT at, status_code, latency_ms, excerpt, error FROM webhook_attempts
          WHERE delivery_id = ? ORDER BY at, rowid`,
    args: [id],
  });
  return {
    ...toDelivery(row),
    payload: String(row.payload),
    attemptLog: attempts.rows.map((r): AttemptRow => ({
      at: Number(r.at),
      statusCode: num(r.status_code),
      latencyMs: Number(r.latency_ms),
      excerpt: String(r.excerpt),
      error: r.error === null ? null : String(r.error),
    })),
  };
}
