/**
 * Metered charges (docs/SPEC.md "Metered usage", docs/DESIGN.md section 5): the charge is written in the same
 * write transaction that checks the 1,000 USD per publisher per month cap, so concurrent reads on
 * any number of nodes can never push a month past the cap. An idempotency key makes a retried
 * read free: the second attempt finds the first charge and is not billed again.
 * The SQL is one conditional batch in store/charges.ts (`insertChargeWithinCap`).
 */
import { inSpan, meters } from "../../platform/telemetry.ts";
import { insertChargeWithinCap } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import type { SpendState } from "../../../store/budgets.ts";
import { newTimeOrderedId, sha256Hex } from "../../../store/ids.ts";
import { monthOf } from "../../platform/clock.ts";
import { AppError } from "../../platform/errors.ts";
import type { Charge, Surface } from "../licensing/mod.ts";
import { METERED_CAP_MICROS, subtractMicros, sumMicros } from "../../platform/money.ts";

/** What happened to a charge. */
export type ChargeResult =
  // `spend`: the month's spend and budgets as the write left them (docs/decisions/billing.md).
  | { status: "charged"; chargeId: string; statementMonth: string; spend: SpendState }
  | { status: "duplicate"; chargeId: string }
  | { status: "capped" };

/** The read being charged for. */
export interface ChargeRequest {
  /** The ledger id to write (the read signs its receipt before the write answers). */
  chargeId?: string;
  buyerId: string;
  publisherId: string;
  articleId: string;
  charge: Charge;
  identity: string;
  surface: Surface;
  idempotencyKey?: string | null;
  /** Collected at the read (x402); invoiced when absent. */
  paidVia?: "x402" | null;
  now: Date;
}

/** Writes the charge if the month's spend stays within the cap; atomic across processes. */
export function chargeRead(db: Client, req: ChargeRequest): Promise<ChargeResult> {
  const attributes = { "folio.surface": req.surface, "folio.publisher_id": req.publisherId };
  return inSpan("folio.charge", attributes, async (span) => {
    const result = await charge(db, req);
    span.setAttribute("folio.charge_result", result.status);
    meters.charges.add(1, { surface: req.surface, result: result.status });
    if (result.status === "charged") {
      meters.chargedMicros.add(req.charge.micros, { surface: req.surface });
    }
    return result;
  });
}

async function charge(db: Client, req: ChargeRequest): Promise<ChargeResult> {
  const chargeId = req.chargeId ?? newTimeOrderedId("chg", req.now);
  const key = req.idempotencyKey || null;
  const requestHash = await sha256Hex(`${req.publisherId}\n${req.articleId}\n${req.charge.use}`);
  const { written, prior, statementMonth, spend, addedAfter } = await insertChargeWithinCap(db, {
    id: chargeId,
    buyerId: req.buyerId,
    publisherId: req.publisherId,
    articleId: req.articleId,
    useCase: req.charge.use,
    kind: req.charge.kind,
    micros: req.charge.micros,
    priceMicros: subtractMicros(req.charge.micros, req.charge.feeMicros),
    feeMicros: req.charge.feeMicros,
    month: monthOf(req.now),
    capMicros: METERED_CAP_MICROS,
    idempotencyKey: key,
    requestHash,
    identity: req.identity,
    surface: req.surface,
    paidVia: req.paidVia,
    now: req.now,
  });
  if (written) {
    const spendAfter = spendRightAfter(spend!, sumMicros(addedAfter));
    return { status: "charged", chargeId, statementMonth: statementMonth!, spend: spendAfter };
  }
  if (!key || !prior) return { status: "capped" };
  if (prior.requestHash !== requestHash) {
    throw new AppError(
      409,
      "idempotency_key_reused",
      "Idempotency-Key was already used for a different read; use a new key per read",
    );
  }
  return { status: "duplicate", chargeId: prior.id };
}

/**
 * The spend right after this charge, from the state its write left (`later`: what the same write
 * charged after it). The overall sum is read only when an overall budget exists (else 0).
 */
function spendRightAfter(state: SpendState, later: number): SpendState {
  if (later === 0) return state;
  return {
    ...state,
    spentMicros: subtractMicros(state.spentMicros, later),
    budgetSpentMicros: subtractMicros(state.budgetSpentMicros, later),
    overallSpentMicros: state.overallBudgetMicros === null
      ? state.overallSpentMicros
      : subtractMicros(state.overallSpentMicros, later),
  };
}
