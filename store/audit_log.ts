/**
 * The audit log's rows (store/migrations/0051_audit_log.sql): appended, read, never changed (the
 * store's triggers refuse UPDATE and DELETE). Written through server/domain/audit/audit.ts.
 */
import type { Row } from "@libsql/client";
import type { Executor } from "./db.ts";

/** Who may act. */
export const ACTOR_KINDS = ["operator", "publisher", "buyer", "system", "stripe"] as const;
export type ActorKind = typeof ACTOR_KINDS[number];

/** One row as stored (before and after as JSON text). */
export interface AuditRow {
  seq: number;
  at: number;
  actorKind: ActorKind;
  actorId: string;
  action: string;
  subjectKind: string;
  subjectId: string;
  beforeJson: string | null;
  afterJson: string | null;
  reason: string | null;
}

/** Appends a row; its sequence number. */
export async function appendAudit(db: Executor, row: Omit<AuditRow, "seq">): Promise<number> {
  const rs = await db.execute({
    sql: `INSERT INTO audit_log (at, actor_kind, actor_id, action, subject_kind, subject_id,
            before_json, after_json, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    args: [
      row.at,
      row.actorKind,
      row.actorId,
      row.action,
      row.subjectKind,
      row.subjectId,
      row.beforeJson,
      row.afterJson,
      row.reason,
    ],
  });
  return Number(rs.rows[0].seq);
}

/** What a listing may be narrowed to; every field is optional. */
export interface AuditFilter {
  actorKind?: ActorKind;
  actorId?: string;
  /** An exact action, or a prefix ending in "." (`invoice.` for every invoice action). */
  action?: string;
  subjectKind?: string;
  subjectId?: string;
  /** Milliseconds, inclusive. */
  from?: number;
  /** Milliseconds, exclusive. */
  to?: number;
  /** Rows before this sequence number (paging, newest first). */
  before?: number;
}

/** Rows matching `filter`, newest first, at most `limit`. */
export async function listAudit(
  db: Executor,
  filter: AuditFilter,
  limit: number,
): Promise<AuditRow[]> {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    args.push(value);
  };
  add("actor_kind = ?", filter.actorKind);
  add("actor_id = ?", filter.actorId);
  if (filter.action?.endsWith(".")) {
    where.push("substr(action, 1, ?) = ?");
    args.push(filter.action.length, filter.action);
  } else add("action = ?", filter.action);
  add("subject_kind = ?", filter.subjectKind);
  add("subject_id = ?", filter.subjectId);
  add("at >= ?", filter.from);
  add("at < ?", filter.to);
  add("seq < ?", filter.before);
  const rs = await db.execute({
    sql: `SELECT seq, at, actor_kind, actor_id, action, subject_kind, subject_id, before_json,
            after_json, reason FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY seq DESC LIMIT ?`,
    args: [...args, limit],
  });
  return rs.rows.map(auditOf);
}

function auditOf(r: Row): AuditRow {
  return {
    seq: Number(r.seq),
    at: Number(r.at),
    actorKind: String(r.actor_kind) as ActorKind,
    actorId: String(r.actor_id),
    action: String(r.action),
    subjectKind: String(r.subject_kind),
    subjectId: String(r.subject_id),
    beforeJson: r.before_json === null ? null : String(r.before_json),
    afterJson: r.after_json === null ? null : String(r.after_json),
    reason: r.reason === null ? null : String(r.reason),
  };
}
