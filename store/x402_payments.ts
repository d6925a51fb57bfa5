/**
 * x402 payments (migration 0090; docs/decisions/x402.md): one row per payment authorisation,
 * written before it is settled, so its replay key pays once across every process on the store and
 * a crash between the chain and the ledger leaves a row to reconcile. Also the payer's buyer
 * account: one per payer address, made on its first payment.
 */
import type { Client } from "./db.ts";

/** A payment row's state (see the migration). */
export type X402State = "settling" | "settled" | "charged" | "failed";

/** A payment as recorded. */
export interface X402Payment {
  id: string;
  replayKey: string;
  network: string;
  asset: string;
  payer: string;
  buyerId: string;
  publisherId: string;
  articleId: string;
  resource: string;
  amountMicros: number;
  feeMicros: number;
  useCase: string;
  state: X402State;
  txHash: string | null;
  chargeId: string | null;
  error: string | null;
  /** The PaymentPayload and PaymentRequirements as JSON, to settle or reconcile again. */
  payload: string;
  requirements: string;
  validBefore: number;
  createdAt: number;
}

/** The buyer account of an x402 payer address: stable, so two processes make the same one. */
export function payerBuyerId(payer: string): string {
  return `byr_x402_${payer.toLowerCase()}`;
}

/**
 * Makes the payer's buyer account if it has none; answers its id. No email: a payer has no inbox
 * Folio knows of, and the outbox sends nothing to an account without one.
 */
export async function ensurePayerBuyer(db: Client, payer: string, now: Date): Promise<string> {
  const id = payerBuyerId(payer);
  const address = payer.toLowerCase();
  const name = `x402 payer ${address.slice(0, 6)}…${address.slice(-4)}`;
  await db.batch([
    {
      // `sole` NULL: an empty email claims no address.
      sql: `INSERT INTO buyers (id, name, email, created_at, sole) VALUES (?, ?, ?, ?, NULL)
            ON CONFLICT (id) DO NOTHING`,
      args: [id, name, "", now.getTime()],
    },
    {
      sql: `INSERT INTO oauth_clients (id, kind, buyer_id, name, created_at)
            VALUES (?, 'buyer', ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      args: [`buyer:${id}`, id, name, now.getTime()],
    },
  ], "write");
  return id;
}

/**
 * Records the intent to settle; false when the replay key is taken (a replay). An authorisation
 * whose settlement failed moved nothing and may be tried again: its row is taken over.
 */
export async function reserveX402Payment(
  db: Client,
  p: Omit<X402Payment, "state" | "txHash" | "chargeId" | "error">,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `INSERT INTO x402_payments (id, replay_key, network, asset, payer, buyer_id, publisher_id,
            article_id, resource, amount_micros, fee_micros, use_case, state, payload, requirements,
            valid_before, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'settling', ?, ?, ?, ?, ?)
          ON CONFLICT (replay_key) DO UPDATE SET id = excluded.id, buyer_id = excluded.buyer_id,
            publisher_id = excluded.publisher_id, article_id = excluded.article_id,
            resource = excluded.resource, amount_micros = excluded.amount_micros,
            fee_micros = excluded.fee_micros, use_case = excluded.use_case, state = 'settling',
            error = NULL, payload = excluded.payload, requirements = excluded.requirements,
            valid_before = excluded.valid_before, updated_at = excluded.updated_at
            WHERE x402_payments.state = 'failed'
          RETURNING id`,
    args: [
      p.id,
      p.replayKey,
      p.network,
      p.asset,
      p.payer,
      p.buyerId,
      p.publisherId,
      p.articleId,
      p.resource,
      p.amountMicros,
      p.feeMicros,
      p.useCase,
      p.payload,
      p.requirements,
      p.validBefore,
      p.createdAt,
      p.createdAt,
    ],
  });
  return rs.rows.length === 1;
}

/** Whether the replay key already paid or is being settled (a failed one may be tried again). */
export async function x402ReplayKeyTaken(db: Client, replayKey: string): Promise<boolean> {
  const rs = await db.execute({
    sql: "SELECT 1 FROM x402_payments WHERE replay_key = ? AND state != 'failed'",
    args: [replayKey],
  });
  return rs.rows.length > 0;
}

/** Moves a payment on from `from`; false when it was no longer there (another process moved it). */
export async function moveX402Payment(
  db: Client,
  id: string,
  from: X402State,
  to: { state: X402State; txHash?: string; chargeId?: string; error?: string; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE x402_payments SET state = ?, tx_hash = COALESCE(?, tx_hash),
            charge_id = COALESCE(?, charge_id), error = COALESCE(?, error), updated_at = ?
          WHERE id = ? AND state = ?`,
    args: [
      to.state,
      to.txHash ?? null,
      to.chargeId ?? null,
      to.error ?? null,
      to.now.getTime(),
      id,
      from,
    ],
  });
  return rs.rowsAffected === 1;
}

/** Payments a crash may have left between the facilitator and the ledger. */
export async function openX402Payments(db: Client): Promise<X402Payment[]> {
  const rs = await db.execute(
    "SELECT * FROM x402_payments WHERE state IN ('settling', 'settled') ORDER BY created_at",
  );
  return rs.rows.map(rowOf);
}

/** One payment by id (tests and reconciliation). */
export async function getX402Payment(db: Client, id: string): Promise<X402Payment | null> {
  const rs = await db.execute({ sql: "SELECT * FROM x402_payments WHERE id = ?", args: [id] });
  return rs.rows[0] ? rowOf(rs.rows[0]) : null;
}

/** Every payment, oldest first (tests and the operator's reconciliation with the chain). */
export async function listX402Payments(db: Client): Promise<X402Payment[]> {
  const rs = await db.execute("SELECT * FROM x402_payments ORDER BY created_at, id");
  return rs.rows.map(rowOf);
}

function rowOf(r: Record<string, unknown>): X402Payment {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    replayKey: String(r.replay_key),
    network: String(r.network),
    asset: String(r.asset),
    payer: String(r.payer),
    buyerId: String(r.buyer_id),
    publisherId: String(r.publisher_id),
    articleId: String(r.article_id),
    resource: String(r.resource),
    amountMicros: Number(r.amount_micros),
    feeMicros: Number(r.fee_micros),
    useCase: String(r.use_case),
    state: String(r.state) as X402State,
    txHash: text(r.tx_hash),
    chargeId: text(r.charge_id),
    error: text(r.error),
    payload: String(r.payload),
    requirements: String(r.requirements),
    validBefore: Number(r.valid_before),
    createdAt: Number(r.created_at),
  };
}
