/**
 * Persistence of disputes, their items and credit notes (migration 0065). Amounts are integer
 * micro-dollars; server/domain/billing/disputes.ts holds the rules.
 */
import type { Client, Executor } from "./db.ts";

export type DisputeState = "open" | "escalated" | "accepted" | "partially_accepted" | "refused";

/** States a decision may still be taken in. */
export const UNDECIDED: readonly DisputeState[] = ["open", "escalated"];

/** A disputed item: what it was billed and what was credited of it. */
export interface DisputeItemRow {
  chargeId: string;
  amountMicros: number;
  creditedMicros: number;
}

/** A dispute row with its items and its credit note's number, if any. */
export interface DisputeRow {
  id: string;
  buyerId: string;
  buyerName: string;
  publisherId: string;
  publisherName: string;
  state: DisputeState;
  reason: string;
  disputedMicros: number;
  creditedMicros: number;
  decisionReason: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  escalatedAt: number | null;
  createdAt: number;
  creditNote: CreditNoteRow | null;
  items: DisputeItemRow[];
}

/** A credit note. */
export interface CreditNoteRow {
  seq: number;
  id: string;
  disputeId: string;
  buyerId: string;
  publisherId: string;
  amountMicros: number;
  appliedTo: "statement" | "balance";
  statementMonth: string;
  issuedAt: number;
}

/** Which disputes: a buyer's, a publisher's or every one (the operator), narrowed. */
export interface DisputeFilter {
  buyerId?: string;
  publisherId?: string;
  state?: DisputeState;
  /** The last dispute of the previous page. */
  after?: { createdAt: number; id: string };
}

/** Writes a dispute and its items; false when an item is already disputed (UNIQUE charge_id). */
export async function insertDispute(
  db: Executor,
  d: {
    id: string;
    buyerId: string;
    publisherId: string;
    reason: string;
    items: { chargeId: string; amountMicros: number }[];
    /** What the items billed together. */
    totalMicros: number;
    now: Date;
  },
): Promise<boolean> {
  const total = d.totalMicros;
  await db.execute({
    sql: `INSERT INTO disputes (id, buyer_id, publisher_id, state, reason, disputed_micros,
            created_at) VALUES (?, ?, ?, 'open', ?, ?, ?)`,
    args: [d.id, d.buyerId, d.publisherId, d.reason, total, d.now.getTime()],
  });
  for (const i of d.items) {
    const rs = await db.execute({
      sql: `INSERT INTO dispute_items (dispute_id, charge_id, amount_micros) VALUES (?, ?, ?)
            ON CONFLICT (charge_id) DO NOTHING`,
      args: [d.id, i.chargeId, i.amountMicros],
    });
    if (rs.rowsAffected !== 1) return false;
  }
  return true;
}

/** The items among `chargeIds` already under a dispute (any state) or that are credit rows. */
export async function unavailableItems(
  db: Executor,
  chargeIds: string[],
): Promise<{ disputed: string[]; credits: string[] }> {
  if (chargeIds.length === 0) return { disputed: [], credits: [] };
  const marks = chargeIds.map(() => "?").join(", ");
  const [disputed, credits] = await Promise.all([
    db.execute({
      sql: `SELECT charge_id FROM dispute_items WHERE charge_id IN (${marks})`,
      args: chargeIds,
    }),
    db.execute({
      sql: `SELECT id FROM charges WHERE id IN (${marks}) AND credit_of IS NOT NULL`,
      args: chargeIds,
    }),
  ]);
  return {
    disputed: disputed.rows.map((r) => String(r.charge_id)),
    credits: credits.rows.map((r) => String(r.id)),
  };
}

const SELECT = `SELECT d.*, b.name AS buyer_name, p.name AS publisher_name FROM disputes d
  JOIN buyers b ON b.id = d.buyer_id JOIN publishers p ON p.id = d.publisher_id`;

/** One dispute, with its items and credit note (null: none such). */
export async function getDispute(db: Executor, id: string): Promise<DisputeRow | null> {
  const rs = await db.execute({ sql: `${SELECT} WHERE d.id = ?`, args: [id] });
  if (!rs.rows[0]) return null;
  const [row] = await withDetails(db, rs.rows);
  return row;
}

/** Up to `limit` disputes matching `filter`, newest first. */
export async function listDisputes(
  db: Client,
  filter: DisputeFilter,
  options: { limit: number },
): Promise<DisputeRow[]> {
  const where: string[] = ["1 = 1"];
  const args: (string | number)[] = [];
  if (filter.buyerId) where.push("d.buyer_id = ?") && args.push(filter.buyerId);
  if (filter.publisherId) where.push("d.publisher_id = ?") && args.push(filter.publisherId);
  if (filter.state) where.push("d.state = ?") && args.push(filter.state);
  if (filter.after) {
    where.push("(d.created_at < ? OR (d.created_at = ? AND d.id < ?))");
    args.push(filter.after.createdAt, filter.after.createdAt, filter.after.id);
  }
  const rs = await db.execute({
    sql: `${SELECT} WHERE ${where.join(" AND ")} ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
    args: [...args, options.limit],
  });
  return await withDetails(db, rs.rows);
}

/** How many disputes match `filter` (its cursor aside). */
export async function countDisputes(db: Client, filter: DisputeFilter): Promise<number> {
  const where: string[] = ["1 = 1"];
  const args: string[] = [];
  if (filter.buyerId) where.push("buyer_id = ?") && args.push(filter.buyerId);
  if (filter.publisherId) where.push("publisher_id = ?") && args.push(filter.publisherId);
  if (filter.state) where.push("state = ?") && args.push(filter.state);
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM disputes WHERE ${where.join(" AND ")}`,
    args,
  });
  return Number(rs.rows[0].n);
}

// deno-lint-ignore no-explicit-any
async function withDetails(db: Executor, rows: any[]): Promise<DisputeRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => String(r.id));
  const marks = ids.map(() => "?").join(", ");
  const [items, notes] = await Promise.all([
    db.execute({
      sql: `SELECT * FROM dispute_items WHERE dispute_id IN (${marks})
            ORDER BY dispute_id, charge_id`,
      args: ids,
    }),
    db.execute({ sql: `SELECT * FROM credit_notes WHERE dispute_id IN (${marks})`, args: ids }),
  ]);
  return rows.map((r) => {
    const id = String(r.id);
    const note = notes.rows.find((n) => String(n.dispute_id) === id);
    return {
      id,
      buyerId: String(r.buyer_id),
      buyerName: String(r.buyer_name),
      publisherId: String(r.publisher_id),
      publisherName: String(r.publisher_name),
      state: String(r.state) as DisputeState,
      reason: String(r.reason),
      disputedMicros: Number(r.disputed_micros),
      creditedMicros: Number(r.credited_micros),
      decisionReason: r.decision_reason === null ? null : String(r.decision_reason),
      decidedBy: r.decided_by === null ? null : String(r.decided_by),
      decidedAt: r.decided_at === null ? null : Number(r.decided_at),
      escalatedAt: r.escalated_at === null ? null : Number(r.escalated_at),
      createdAt: Number(r.created_at),
      creditNote: note ? creditNoteOf(note) : null,
      items: items.rows.filter((i) => String(i.dispute_id) === id).map((i) => ({
        chargeId: String(i.charge_id),
        amountMicros: Number(i.amount_micros),
        creditedMicros: Number(i.credited_micros),
      })),
    };
  });
}

// deno-lint-ignore no-explicit-any
function creditNoteOf(n: any): CreditNoteRow {
  return {
    seq: Number(n.seq),
    id: String(n.id),
    disputeId: String(n.dispute_id),
    buyerId: String(n.buyer_id),
    publisherId: String(n.publisher_id),
    amountMicros: Number(n.amount_micros),
    appliedTo: String(n.applied_to) as CreditNoteRow["appliedTo"],
    statementMonth: String(n.statement_month),
    issuedAt: Number(n.issued_at),
  };
}

/**
 * Records the decision if the dispute is still undecided (a conditional UPDATE: of two deciders
 * racing, one wins); false when it was already decided.
 */
export async function recordDecision(
  db: Executor,
  id: string,
  d: {
    state: "accepted" | "partially_accepted" | "refused";
    creditedMicros: number;
    reason: string | null;
    decidedBy: string;
    now: Date;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE disputes SET state = ?, credited_micros = ?, decision_reason = ?, decided_by = ?,
            decided_at = ? WHERE id = ? AND state IN ('open', 'escalated')`,
    args: [d.state, d.creditedMicros, d.reason, d.decidedBy, d.now.getTime(), id],
  });
  return rs.rowsAffected === 1;
}

/** What was credited of one disputed item. */
export async function setItemCredit(
  db: Executor,
  disputeId: string,
  chargeId: string,
  creditedMicros: number,
): Promise<void> {
  await db.execute({
    sql: "UPDATE dispute_items SET credited_micros = ? WHERE dispute_id = ? AND charge_id = ?",
    args: [creditedMicros, disputeId, chargeId],
  });
}

/** Gives the dispute its credit note (the next number of the global sequence). */
export async function insertCreditNote(
  db: Executor,
  n: Omit<CreditNoteRow, "seq" | "issuedAt"> & { now: Date },
): Promise<CreditNoteRow> {
  const rs = await db.execute({
    sql: `INSERT INTO credit_notes (id, dispute_id, buyer_id, publisher_id, amount_micros,
            applied_to, statement_month, issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          RETURNING *`,
    args: [
      n.id,
      n.disputeId,
      n.buyerId,
      n.publisherId,
      n.amountMicros,
      n.appliedTo,
      n.statementMonth,
      n.now.getTime(),
    ],
  });
  return creditNoteOf(rs.rows[0]);
}

/** A credit note by its id, with the buyer it belongs to. */
export async function getCreditNote(db: Executor, id: string): Promise<CreditNoteRow | null> {
  const rs = await db.execute({ sql: "SELECT * FROM credit_notes WHERE id = ?", args: [id] });
  return rs.rows[0] ? creditNoteOf(rs.rows[0]) : null;
}

/** A credit note by its sequence number. */
export async function creditNoteBySeq(db: Executor, seq: number): Promise<CreditNoteRow | null> {
  const rs = await db.execute({ sql: "SELECT * FROM credit_notes WHERE seq = ?", args: [seq] });
  return rs.rows[0] ? creditNoteOf(rs.rows[0]) : null;
}

/** Writes one negative ledger row crediting `creditOf` (its price and fee shares, negated). */
export async function insertCreditCharge(
  db: Executor,
  c: {
    id: string;
    creditOf: string;
    creditNoteId: string;
    via: "statement" | "balance";
    month: string;
    statementMonth: string;
    priceMicros: number;
    feeMicros: number;
    now: Date;
  },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, license_id, use_case, kind,
            price_micros, fee_micros, month, statement_month, identity, surface, credit_of,
            credit_note_id, credit_via, created_at)
          SELECT ?, buyer_id, publisher_id, article_id, license_id, use_case, 'adjustment', ?, ?, ?,
            ?, identity, surface, id, ?, ?, ? FROM charges WHERE id = ?`,
    args: [
      c.id,
      -c.priceMicros,
      -c.feeMicros,
      c.month,
      c.statementMonth,
      c.creditNoteId,
      c.via,
      c.now.getTime(),
      c.creditOf,
    ],
  });
}

/** Marks undecided disputes opened before `before` escalated; answers those it marked. */
export async function escalateDisputes(
  db: Executor,
  options: { before: number; now: Date },
): Promise<{ id: string; buyerId: string; publisherId: string }[]> {
  const rs = await db.execute({
    sql: `UPDATE disputes SET state = 'escalated', escalated_at = ?
          WHERE state = 'open' AND created_at < ? RETURNING id, buyer_id, publisher_id`,
    args: [options.now.getTime(), options.before],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    buyerId: String(r.buyer_id),
    publisherId: String(r.publisher_id),
  }));
}
