/**
 * The audit log (issue 38; docs/decisions/operator.md "The audit log"): one append-only record of
 * every operator action and every money-moving action of anyone, written with `audit()` inside
 * the caller's own write transaction, so the record and the change commit or roll back together.
 *
 *   await inWriteTx(db, async (tx) => {
 *     await recordPayment(tx, ...);
 *     await audit(tx, { actor, action: "invoice.payment_recorded", subject: { kind: "invoice",
 *       id }, before, after, reason, now: deps.clock.now() });
 *   });
 */
import { type ActorKind, appendAudit, type AuditRow } from "../../../store/audit_log.ts";
import type { Executor } from "../../../store/db.ts";

export { ACTOR_KINDS, type ActorKind } from "../../../store/audit_log.ts";

/** Who acted: an operator, publisher or buyer by id; `system` (a cron) or `stripe` by name. */
export interface Actor {
  kind: ActorKind;
  id: string;
}

/** What was acted on. */
export interface Subject {
  kind: string;
  id: string;
}

/** One entry of the log. */
export interface AuditEntry {
  actor: Actor;
  /** `<subject>.<verb>` in snake case: `invoice.payment_recorded`, `operator_key.revoked`. */
  action: string;
  subject: Subject;
  /** The state before and after (a row, or the fields that changed); null where there is none. */
  before?: unknown;
  after?: unknown;
  /** The reason the actor gave, when the action asks for one. */
  reason?: string | null;
  now: Date;
}

const ACTION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Appends one entry; its sequence number. Throws on a malformed action (a programming error). */
export async function audit(db: Executor, entry: AuditEntry): Promise<number> {
  if (!ACTION.test(entry.action)) {
    throw new Error(`audit: the action "${entry.action}" is not <subject>.<verb>`);
  }
  return await appendAudit(db, {
    at: entry.now.getTime(),
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    action: entry.action,
    subjectKind: entry.subject.kind,
    subjectId: entry.subject.id,
    beforeJson: entry.before === undefined || entry.before === null
      ? null
      : JSON.stringify(entry.before),
    afterJson: entry.after === undefined || entry.after === null
      ? null
      : JSON.stringify(entry.after),
    reason: entry.reason ?? null,
  });
}

/** The system's own actions (crons, the month close) act as this. */
export const SYSTEM: Actor = { kind: "system", id: "folio" };

/** Stripe's webhook acts as this. */
export const STRIPE: Actor = { kind: "stripe", id: "stripe" };

/** A stored row as the API answers it (before and after parsed back). */
export function auditView(row: AuditRow) {
  return {
    seq: row.seq,
    at: new Date(row.at).toISOString(),
    actor: { kind: row.actorKind, id: row.actorId },
    action: row.action,
    subject: { kind: row.subjectKind, id: row.subjectId },
    before: row.beforeJson === null ? null : JSON.parse(row.beforeJson) as unknown,
    after: row.afterJson === null ? null : JSON.parse(row.afterJson) as unknown,
    reason: row.reason,
  };
}
