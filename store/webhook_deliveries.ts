/**
 * The webhook delivery queue and its log (migration 0043, docs/decisions/webhooks.md): due rows
 * leased to one node at a time, each attempt recorded, listings for the owner's pages. Reads for
 * an owner join the endpoint and name the owner. Times are epoch milliseconds.
 */
import type { Row } from "@libsql/client";
import type { Client } from "./db.ts";
import type { Owner } from "./webhooks.ts";

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

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, ev.type, d.state, d.attempts,
  d.next_attempt_at, d.replay_of, d.created_at,
  (SELECT status_code FROM webhook_attempts a WHERE a.delivery_id = d.id
    ORDER BY a.at DESC, a.rowid DESC LIMIT 1) AS last_status,
  (SELECT error FROM webhook_attempts a WHERE a.delivery_id = d.id
    ORDER BY a.at DESC, a.rowid DESC LIMIT 1) AS last_error`;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

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
