/** Persistence of processed payment-processor events: the idempotency record of webhooks. */
import type { Executor } from "./db.ts";

/** Claims an event id; false when it was already processed (a duplicate delivery). */
export async function claimPaymentEvent(
  db: Executor,
  event: { id: string; type: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO payment_events (id, type, received_at) VALUES (?, ?, ?)
          ON CONFLICT (id) DO NOTHING`,
    args: [event.id, event.type, event.now.getTime()],
  });
  return rs.rowsAffected === 1;
}

/** Notes what an event did, for audit. */
export async function recordPaymentEffect(db: Executor, id: string, effect: string): Promise<void> {
  await db.execute({
    sql: "UPDATE payment_events SET effect = ? WHERE id = ?",
    args: [effect, id],
  });
}
