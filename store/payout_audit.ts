/**
 * The payout steps' audit trail (migration 0070, append-only by trigger): who, what, when, before
 * and after. Kept until the operator's audit log (issue 38 part 1) takes these entries too.
 */
import type { Executor } from "./db.ts";

/** One audited step. */
export interface PayoutAuditEntry {
  at: number;
  actor: string;
  action: string;
  subject: string;
  before: unknown;
  after: unknown;
}

/** Appends `entry` (in the caller's transaction, so the step and its record commit together). */
export async function appendPayoutAudit(db: Executor, entry: PayoutAuditEntry): Promise<void> {
  await db.execute({
    sql: `INSERT INTO payout_audit (at, actor, action, subject, before, after)
          VALUES (?, ?, ?, ?, ?, ?)`,
    args: [
      entry.at,
      entry.actor,
      entry.action,
      entry.subject,
      entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === null ? null : JSON.stringify(entry.after),
    ],
  });
}

/** The entries about `subject` (or all), oldest first. */
export async function payoutAuditOf(
  db: Executor,
  options: { subject?: string; limit: number },
): Promise<PayoutAuditEntry[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM payout_audit ${options.subject ? "WHERE subject = ?" : ""}
          ORDER BY seq LIMIT ?`,
    args: [...(options.subject ? [options.subject] : []), options.limit],
  });
  return rs.rows.map((r) => ({
    at: Number(r.at),
    actor: String(r.actor),
    action: String(r.action),
    subject: String(r.subject),
    before: r.before === null ? null : JSON.parse(String(r.before)),
    after: r.after === null ? null : JSON.parse(String(r.after)),
  }));
}
