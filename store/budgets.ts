/**
 * Persistence of buyer budgets: monthly limits a buyer sets on what it is billed (reads and
 * license fees; docs/decisions/billing.md), overall (scope `*`) and per publisher. Amounts are
 * integer micro-dollars.
 */
import type { Client, Executor } from "./db.ts";

/** The scope of the budget that covers every publisher. */
export const OVERALL = "*";

/** A budget row: `publisherId` null is the overall budget. */
export interface Budget {
  publisherId: string | null;
  monthlyMicros: number;
}

/** What limits a buyer's per-read spend with one publisher this month. */
export interface SpendState {
  /** Spent on reads with this publisher this month (what the cap counts). */
  spentMicros: number;
  /** Spent with this publisher this month, reads and license fees (what its budget counts). */
  budgetSpentMicros: number;
  /** Spent with every publisher this month, reads and license fees (the overall budget's). */
  overallSpentMicros: number;
  publisherBudgetMicros: number | null;
  overallBudgetMicros: number | null;
}

/** The month's spend and the budgets for one buyer and publisher, in one round trip. */
export async function spendState(
  db: Executor,
  buyerId: string,
  options: { publisherId: string; month: string },
): Promise<SpendState> {
  const rs = await db.execute({
    sql: `SELECT
            (SELECT metered_micros FROM monthly_spend
              WHERE buyer_id = ?1 AND publisher_id = ?2 AND month = ?3) AS spent,
            (SELECT metered_micros + license_micros FROM monthly_spend
              WHERE buyer_id = ?1 AND publisher_id = ?2 AND month = ?3) AS budget_spent,
            (SELECT SUM(metered_micros + license_micros) FROM monthly_spend
              WHERE buyer_id = ?1 AND month = ?3) AS overall_spent,
            (SELECT monthly_micros FROM buyer_budgets
              WHERE buyer_id = ?1 AND scope = ?2) AS publisher_budget,
            (SELECT monthly_micros FROM buyer_budgets
              WHERE buyer_id = ?1 AND scope = '*') AS overall_budget`,
    args: [buyerId, options.publisherId, options.month],
  });
  return spendOf(rs.rows[0]);
}

/**
 * A spend state from a row with the columns `spent`, `budget_spent`, `overall_spent`,
 * `publisher_budget` and `overall_budget` (spendState's, or a charge write's RETURNING).
 */
export function spendOf(r: Record<string, unknown>): SpendState {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    spentMicros: n(r.spent) ?? 0,
    budgetSpentMicros: n(r.budget_spent) ?? 0,
    overallSpentMicros: n(r.overall_spent) ?? 0,
    publisherBudgetMicros: n(r.publisher_budget),
    overallBudgetMicros: n(r.overall_budget),
  };
}

/** The buyer's budgets, overall first. */
export async function listBudgets(db: Client, buyerId: string): Promise<Budget[]> {
  const rs = await db.execute({
    sql: `SELECT scope, monthly_micros FROM buyer_budgets WHERE buyer_id = ?
          ORDER BY scope = '*' DESC, scope`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.scope) === OVERALL ? null : String(r.scope),
    monthlyMicros: Number(r.monthly_micros),
  }));
}

/** Sets (or, with `monthlyMicros` null, removes) the overall or one publisher's budget. */
export async function setBudget(
  db: Client,
  buyerId: string,
  budget: { publisherId: string | null; monthlyMicros: number | null; now: Date },
): Promise<void> {
  const scope = budget.publisherId ?? OVERALL;
  if (budget.monthlyMicros === null) {
    await db.execute({
      sql: "DELETE FROM buyer_budgets WHERE buyer_id = ? AND scope = ?",
      args: [buyerId, scope],
    });
    return;
  }
  await db.execute({
    sql: `INSERT INTO buyer_budgets (buyer_id, scope, monthly_micros, updated_at)
          VALUES (?, ?, ?, ?)
          ON CONFLICT (buyer_id, scope) DO UPDATE SET monthly_micros = excluded.monthly_micros,
            updated_at = excluded.updated_at`,
    args: [buyerId, scope, budget.monthlyMicros, budget.now.getTime()],
  });
}

/**
 * The buyer's spend this month per publisher: on reads (the cap's counter) and in all, reads and
 * license fees (the budgets' counter).
 */
export async function monthSpendByPublisher(
  db: Client,
  buyerId: string,
  month: string,
): Promise<
  { publisherId: string; publisherName: string; meteredMicros: number; spentMicros: number }[]
> {
  const rs = await db.execute({
    sql: `SELECT s.publisher_id, p.name, s.metered_micros,
            s.metered_micros + s.license_micros AS spent FROM monthly_spend s
          JOIN publishers p ON p.id = s.publisher_id
          WHERE s.buyer_id = ? AND s.month = ? ORDER BY p.name, s.publisher_id`,
    args: [buyerId, month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    publisherName: String(r.name),
    meteredMicros: Number(r.metered_micros),
    spentMicros: Number(r.spent),
  }));
}

/** The buyers that have set any monthly budget (the threshold sweep looks at these only). */
export async function buyersWithBudgets(db: Client): Promise<string[]> {
  const rs = await db.execute("SELECT DISTINCT buyer_id FROM buyer_budgets ORDER BY buyer_id");
  return rs.rows.map((r) => String(r.buyer_id));
}
