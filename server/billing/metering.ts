/**
 * Metered charges (docs/SPEC.md "Metered usage", docs/DESIGN.md section 5): the charge is written in the same
 * write transaction that checks the 1,000 USD per publisher per month cap, so concurrent reads on
 * any number of nodes can never push a month past the cap. An idempotency key makes a retried
 * read free: the second attempt finds the first charge and is not billed again.
 *
 * The transaction is one batch of conditional statements rather than an interactive transaction:
 * the embedded driver runs a batch without yielding, so no other connection in this process can
 * wait on a lock we hold across an `await` (store/write_lock.ts explains that deadlock), and
 * other processes are serialised by SQLite's write lock and busy timeout.
 */
import type { Client } from "../../store/db.ts";
import { newId, sha256Hex } from "../../store/ids.ts";
import { nextMonth } from "../../store/statements.ts";
import { monthOf } from "../clock.ts";
import { AppError } from "../errors.ts";
import type { Charge, Surface } from "../licensing/mod.ts";
import { METERED_CAP_MICROS } from "../money.ts";

/** What happened to a charge. */
export type ChargeResult =
  | { status: "charged"; chargeId: string }
  | { status: "duplicate"; chargeId: string }
  | { status: "capped" };

/** The read being charged for. */
export interface ChargeRequest {
  buyerId: string;
  publisherId: string;
  articleId: string;
  charge: Charge;
  identity: string;
  surface: Surface;
  idempotencyKey?: string | null;
  now: Date;
}

/** Writes the charge if the month's spend stays within the cap; atomic across processes. */
export async function chargeRead(db: Client, req: ChargeRequest): Promise<ChargeResult> {
  const month = monthOf(req.now);
  const requestHash = await sha256Hex(`${req.publisherId}\n${req.articleId}\n${req.charge.use}`);
  const key = req.idempotencyKey || null;
  const chargeId = newId("chg");
  const { micros } = req.charge;
  const [, raised, , prior] = await db.batch([
    {
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING`,
      args: [req.buyerId, req.publisherId, month],
    },
    {
      // The cap check and the spend increase are one statement; a used key raises nothing.
      sql: `UPDATE monthly_spend SET metered_micros = metered_micros + ?
            WHERE buyer_id = ? AND publisher_id = ? AND month = ? AND metered_micros + ? <= ?
              AND NOT EXISTS (SELECT 1 FROM charges WHERE buyer_id = ? AND idempotency_key = ?)`,
      args: [
        micros,
        req.buyerId,
        req.publisherId,
        month,
        micros,
        METERED_CAP_MICROS,
        req.buyerId,
        key,
      ],
    },
    {
      // Written only when the UPDATE above raised the spend (changes() = 1). The statement is the
      // month's unless it is already closed: then the next month's, as an adjustment line.
      sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, use_case, kind,
              price_micros, fee_micros, month, statement_month, idempotency_key, request_hash,
              identity, surface, created_at)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?,
              CASE WHEN EXISTS (SELECT 1 FROM statements WHERE buyer_id = ? AND month = ?
                AND state = 'closed') THEN ? ELSE ? END,
              ?, ?, ?, ?, ? WHERE changes() = 1`,
      args: [
        chargeId,
        req.buyerId,
        req.publisherId,
        req.articleId,
        req.charge.use,
        req.charge.kind,
        micros - req.charge.feeMicros,
        req.charge.feeMicros,
        month,
        req.buyerId,
        month,
        nextMonth(month),
        month,
        key,
        requestHash,
        req.identity,
        req.surface,
        req.now.getTime(),
      ],
    },
    {
      sql: "SELECT id, request_hash FROM charges WHERE buyer_id = ? AND idempotency_key = ?",
      args: [req.buyerId, key],
    },
  ], "write");
  if (!key) {
    return raised.rowsAffected === 1 ? { status: "charged", chargeId } : { status: "capped" };
  }
  const row = prior.rows[0];
  if (!row) return { status: "capped" };
  if (String(row.id) === chargeId) return { status: "charged", chargeId };
  if (row.request_hash !== requestHash) {
    throw new AppError(
      409,
      "idempotency_key_reused",
      "Idempotency-Key was already used for a different read; use a new key per read",
    );
  }
  return { status: "duplicate", chargeId: String(row.id) };
}
