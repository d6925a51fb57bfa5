/** Persistence of closed monthly statements (immutable once closed: see 0004_billing.sql). */
import type { Client, Executor } from "./db.ts";

/** A stored statement row. */
export interface StoredStatement {
  id: string;
  buyerId: string;
  month: string;
  state: "open" | "closed";
  totalMicros: number;
  document: string;
  closedAt: number | null;
}

/** The month after "YYYY-MM". */
export function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/**
 * The statement a ledger row for `month` belongs on: `month` itself, or, when that statement is
 * already closed, the first later month whose statement is still open (late usage is an
 * adjustment on the next statement, never an edit of a closed one).
 */
export async function openStatementMonth(
  db: Executor,
  buyerId: string,
  month: string,
): Promise<string> {
  const rs = await db.execute({
    sql: `SELECT month FROM statements WHERE buyer_id = ? AND state = 'closed' AND month >= ?
          ORDER BY month`,
    args: [buyerId, month],
  });
  let target = month;
  for (const r of rs.rows) {
    if (String(r.month) !== target) break;
    target = nextMonth(target);
  }
  return target;
}

/** The buyer's stored statement for a month, if closed. */
export async function getClosedStatement(
  db: Executor,
  buyerId: string,
  month: string,
): Promise<StoredStatement | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM statements WHERE buyer_id = ? AND month = ? AND state = 'closed'",
    args: [buyerId, month],
  });
  const r = rs.rows[0];
  if (!r) return null;
  return {
    id: String(r.id),
    buyerId: String(r.buyer_id),
    month: String(r.month),
    state: "closed",
    totalMicros: Number(r.total_micros),
    document: String(r.document),
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
  };
}

/** Stores a closed statement; false when one was already closed for that buyer and month. */
export async function insertClosedStatement(
  db: Executor,
  buyerId: string,
  s: { id: string; month: string; totalMicros: number; document: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO statements (id, buyer_id, month, state, total_micros, document, closed_at)
          VALUES (?, ?, ?, 'closed', ?, ?, ?) ON CONFLICT (buyer_id, month) DO NOTHING`,
    args: [s.id, buyerId, s.month, s.totalMicros, s.document, s.now.getTime()],
  });
  return rs.rowsAffected === 1;
}

/** Buyers with ledger rows on `month`'s statement that is not closed yet. */
export async function buyersWithOpenStatement(db: Client, month: string): Promise<string[]> {
  const rs = await db.execute({
    sql: `SELECT DISTINCT c.buyer_id FROM charges c
          WHERE c.statement_month = ? AND c.credit_via IS NOT 'balance' AND NOT EXISTS (
            SELECT 1 FROM statements s WHERE s.buyer_id = c.buyer_id AND s.month = ?
              AND s.state = 'closed')
          ORDER BY c.buyer_id`,
    args: [month, month],
  });
  return rs.rows.map((r) => String(r.buyer_id));
}

/** A month with something on the buyer's statement: its ledger total, and whether it is closed. */
export interface StatementMonth {
  month: string;
  closed: boolean;
  totalMicros: number;
}

/**
 * The months whose statement has ledger rows (by statement month, so a late charge counts where
 * it is billed), newest first, with their totals; a closed statement always has rows.
 */
export async function statementMonths(db: Client, buyerId: string): Promise<StatementMonth[]> {
  const rs = await db.execute({
    sql: `SELECT c.statement_month AS month, SUM(c.price_micros + c.fee_micros) AS total,
            EXISTS (SELECT 1 FROM statements s WHERE s.buyer_id = c.buyer_id
                    AND s.month = c.statement_month AND s.state = 'closed') AS closed
          FROM charges c WHERE c.buyer_id = ? AND c.credit_via IS NOT 'balance'
          GROUP BY c.statement_month ORDER BY c.statement_month DESC`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    month: String(r.month),
    closed: Number(r.closed) === 1,
    totalMicros: Number(r.total),
  }));
}
