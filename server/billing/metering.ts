/**
 * Metered charges (SPEC.md "Metered usage", DESIGN.md section 5): the charge is written in the same
 * write transaction that checks the 1,000 USD per publisher per month cap, so concurrent reads on
 * any number of nodes can never push a month past the cap. An idempotency key makes a retried
 * read free: the second attempt finds the first charge and is not billed again.
 */
import type { Client } from "../../store/db.ts";
import { newId, sha256Hex } from "../../store/ids.ts";
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
  const tx = await db.transaction("write");
  try {
    if (req.idempotencyKey) {
      const prior = await tx.execute({
        sql: "SELECT id, request_hash FROM charges WHERE buyer_id = ? AND idempotency_key = ?",
        args: [req.buyerId, req.idempotencyKey],
      });
      if (prior.rows[0]) {
        if (prior.rows[0].request_hash !== requestHash) {
          throw new AppError(
            409,
            "idempotency_key_reused",
            "Idempotency-Key was already used for a different read; use a new key per read",
          );
        }
        return { status: "duplicate", chargeId: String(prior.rows[0].id) };
      }
    }
    await tx.execute({
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING`,
      args: [req.buyerId, req.publisherId, month],
    });
    const raised = await tx.execute({
      sql: `UPDATE monthly_spend SET metered_micros = metered_micros + ?
            WHERE buyer_id = ? AND publisher_id = ? AND month = ? AND metered_micros + ? <= ?`,
      args: [
        req.charge.micros,
        req.buyerId,
        req.publisherId,
        month,
        req.charge.micros,
        METERED_CAP_MICROS,
      ],
    });
    if (raised.rowsAffected === 0) return { status: "capped" };
    const chargeId = newId("chg");
    await tx.execute({
      sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, use_case, kind,
              price_micros, fee_micros, month, idempotency_key, request_hash, identity, surface,
              created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        chargeId,
        req.buyerId,
        req.publisherId,
        req.articleId,
        req.charge.use,
        req.charge.kind,
        req.charge.micros - req.charge.feeMicros,
        req.charge.feeMicros,
        month,
        req.idempotencyKey ?? null,
        requestHash,
        req.identity,
        req.surface,
        req.now.getTime(),
      ],
    });
    await tx.commit();
    return { status: "charged", chargeId };
  } finally {
    tx.close();
  }
}
