/** Persistence of publisher payouts: a publisher's own prices, per statement month. */
import type { Client, Executor } from "./db.ts";

/** A payout row. */
export interface Payout {
  id: string;
  publisherId: string;
  month: string;
  amountMicros: number;
  state: "pending" | "paid";
}

/**
 * Sets each publisher's payout for `month` to the sum of its prices on that month's statements
 * (platform fees excluded). A payout already marked paid is never changed.
 */
export async function upsertPayouts(
  db: Executor,
  month: string,
  options: { newId: () => string; now: Date },
): Promise<number> {
  const sums = await db.execute({
    sql: `SELECT publisher_id, SUM(price_micros) AS amount FROM charges
          WHERE statement_month = ? GROUP BY publisher_id ORDER BY publisher_id`,
    args: [month],
  });
  for (const r of sums.rows) {
    await db.execute({
      sql: `INSERT INTO payouts (id, publisher_id, month, amount_micros, state, created_at)
            VALUES (?, ?, ?, ?, 'pending', ?)
            ON CONFLICT (publisher_id, month) DO UPDATE SET amount_micros = excluded.amount_micros
            WHERE payouts.state = 'pending'`,
      args: [
        options.newId(),
        String(r.publisher_id),
        month,
        Number(r.amount),
        options.now.getTime(),
      ],
    });
  }
  return sums.rows.length;
}

/** The publisher's payouts, newest month first. */
export async function listPayouts(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<Payout[]> {
  const rs = await db.execute({
    sql: "SELECT * FROM payouts WHERE publisher_id = ? ORDER BY month DESC LIMIT ?",
    args: [publisherId, options.limit],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    publisherId: String(r.publisher_id),
    month: String(r.month),
    amountMicros: Number(r.amount_micros),
    state: String(r.state) as Payout["state"],
  }));
}

/** Every publisher's payout for one month (what the month close tells publishers). */
export async function payoutsOfMonth(
  db: Executor,
  month: string,
): Promise<{ publisherId: string; amountMicros: number }[]> {
  const rs = await db.execute({
    sql: "SELECT publisher_id, amount_micros FROM payouts WHERE month = ? ORDER BY publisher_id",
    args: [month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    amountMicros: Number(r.amount_micros),
  }));
}
