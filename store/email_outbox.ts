/**
 * The email outbox (migration 0055, docs/decisions/email.md): rows written in the caller's
 * transaction, one per (dedupe, recipient), leased to one node at a time by the mail worker and
 * moved on to sent, failed or expired. Times are epoch milliseconds.
 */
import type { Client, Executor } from "./db.ts";

/** Whose email: the owner the event or reset is for. */
export interface MailOwner {
  kind: "publisher" | "buyer" | "operator";
  id: string;
}

/** What an email is made from: the template's name and the data it reads. */
export interface QueuedMail {
  /** One email per dedupe key and recipient: an event id, a reset's id. */
  dedupe: string;
  template: string;
  owner: MailOwner;
  data: Record<string, unknown>;
  now: Date;
  /** Not sent by then: expired instead of sent late. */
  expiresAt: Date;
}

/** A row claimed for sending. */
export interface ClaimedMail {
  id: string;
  recipient: string;
  template: string;
  ownerKind: MailOwner["kind"];
  data: Record<string, unknown>;
  attempts: number;
}

/** A row as the tests and the operator see it. */
export interface MailRow {
  id: string;
  dedupe: string;
  recipient: string;
  template: string;
  state: "pending" | "sent" | "failed" | "expired";
  attempts: number;
  lastError: string | null;
  messageId: string | null;
  sentAt: number | null;
}

const ID = "'eml_' || lower(hex(randomblob(10)))";

/**
 * Queues one email to each person who speaks for the owner: a publisher's console users, a
 * buyer's account email. Answers how many rows were written (a repeat writes none).
 */
export async function queueOwnerMail(db: Executor, m: QueuedMail): Promise<number> {
  const recipients = m.owner.kind === "publisher"
    ? "SELECT email FROM publisher_users WHERE publisher_id = ?"
    : m.owner.kind === "buyer"
    ? "SELECT email FROM buyers WHERE id = ? AND email <> ''"
    : null;
  if (recipients === null) return 0;
  const at = m.now.getTime();
  const rs = await db.execute({
    sql: `INSERT INTO email_outbox (id, dedupe, recipient, template, owner_kind, owner_id, data,
            state, next_attempt_at, expires_at, created_at)
          SELECT ${ID}, ?, lower(r.email), ?, ?, ?, ?, 'pending', ?, ?, ?
            FROM (${recipients}) r
          WHERE true ON CONFLICT (dedupe, recipient) DO NOTHING`,
    args: [
      m.dedupe,
      m.template,
      m.owner.kind,
      m.owner.id,
      JSON.stringify(m.data),
      at,
      m.expiresAt.getTime(),
      at,
      m.owner.id,
    ],
  });
  return rs.rowsAffected;
}

/** Queues one email to one address (a reset link goes to the address that asked). */
export async function queueMailTo(
  db: Executor,
  recipient: string,
  m: QueuedMail,
): Promise<boolean> {
  const at = m.now.getTime();
  const rs = await db.execute({
    sql: `INSERT INTO email_outbox (id, dedupe, recipient, template, owner_kind, owner_id, data,
            state, next_attempt_at, expires_at, created_at)
          VALUES (${ID}, ?, lower(?), ?, ?, ?, ?, 'pending', ?, ?, ?)
          ON CONFLICT (dedupe, recipient) DO NOTHING`,
    args: [
      m.dedupe,
      recipient,
      m.template,
      m.owner.kind,
      m.owner.id,
      JSON.stringify(m.data),
      at,
      m.expiresAt.getTime(),
      at,
    ],
  });
  return rs.rowsAffected > 0;
}

/**
 * Expires what is past its time, then leases up to `limit` due rows to `holder` until
 * `now + leaseMs`: one conditional update, so two nodes never take the same row, and a node that
 * dies mid-send loses its lease at expiry.
 */
export async function claimDueMail(
  db: Client,
  o: { holder: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedMail[]> {
  const now = o.now.getTime();
  await db.execute({
    sql: `UPDATE email_outbox SET state = 'expired', data = '{}', last_error = 'not sent in time'
          WHERE state = 'pending' AND expires_at <= ? AND (lease_until IS NULL OR lease_until <= ?)`,
    args: [now, now],
  });
  const rs = await db.execute({
    sql: `UPDATE email_outbox SET lease_until = ?, leased_by = ?
          WHERE id IN (SELECT id FROM email_outbox
                        WHERE state = 'pending' AND next_attempt_at <= ?
                          AND (lease_until IS NULL OR lease_until <= ?)
                        ORDER BY next_attempt_at, created_at LIMIT ?)
          RETURNING id, recipient, template, owner_kind, data, attempts`,
    args: [now + o.leaseMs, o.holder, now, now, o.limit],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    recipient: String(r.recipient),
    template: String(r.template),
    ownerKind: String(r.owner_kind) as MailOwner["kind"],
    data: JSON.parse(String(r.data)),
    attempts: Number(r.attempts),
  }));
}

/**
 * Records an attempt: sent (its data cleared of any link it carried), failed for good, or pending
 * again at `nextAttemptAt`. Only the lease holder may; false when the lease was lost meanwhile.
 */
export async function recordMailAttempt(
  db: Client,
  a: {
    id: string;
    holder: string;
    state: "pending" | "sent" | "failed";
    nextAttemptAt: number | null;
    error: string | null;
    messageId: string | null;
    at: number;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE email_outbox SET attempts = attempts + 1, state = ?,
            next_attempt_at = COALESCE(?, next_attempt_at), last_error = ?, message_id = ?,
            sent_at = CASE WHEN ? = 'sent' THEN ? ELSE sent_at END,
            data = CASE WHEN ? = 'pending' THEN data ELSE '{}' END,
            lease_until = NULL, leased_by = NULL
          WHERE id = ? AND leased_by = ?`,
    args: [
      a.state,
      a.nextAttemptAt,
      a.error,
      a.messageId,
      a.state,
      a.at,
      a.state,
      a.id,
      a.holder,
    ],
  });
  return rs.rowsAffected > 0;
}

/** Hands a leased row back untried (shutdown), so the next drain on any node takes it. */
export async function releaseMailLease(db: Client, id: string, holder: string): Promise<void> {
  await db.execute({
    sql:
      "UPDATE email_outbox SET lease_until = NULL, leased_by = NULL WHERE id = ? AND leased_by = ?",
    args: [id, holder],
  });
}

/** The outbox rows for one address, oldest first (tests, support). */
export async function mailTo(db: Client, recipient: string): Promise<MailRow[]> {
  const rs = await db.execute({
    sql: `SELECT id, dedupe, recipient, template, state, attempts, last_error, message_id, sent_at
          FROM email_outbox WHERE recipient = lower(?) ORDER BY created_at, rowid`,
    args: [recipient],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    dedupe: String(r.dedupe),
    recipient: String(r.recipient),
    template: String(r.template),
    state: String(r.state) as MailRow["state"],
    attempts: Number(r.attempts),
    lastError: r.last_error === null ? null : String(r.last_error),
    messageId: r.message_id === null ? null : String(r.message_id),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
  }));
}
