/**
 * One read paid over x402 (docs/decisions/x402.md "The paid read"): the `PAYMENT-SIGNATURE`
 * payload is matched to this resource's requirements, verified by the facilitator, recorded as
 * an intent (its replay key spends the authorisation once across processes), settled, and only
 * then charged through the one read path (`readArticle`, collected `x402`), so the item, the
 * receipt, the statement and the payout are any landing read's. A refusal charges nothing.
 *
 * @module
 */
import type { Article } from "../../../store/articles.ts";
import { newId } from "../../../store/ids.ts";
import type { Publisher } from "../../../store/publishers.ts";
import {
  ensurePayerBuyer,
  moveX402Payment,
  reserveX402Payment,
  x402ReplayKeyTaken,
} from "../../../store/x402_payments.ts";
import type { X402Config } from "../../platform/config.ts";
import type { Logger } from "../../platform/log.ts";
import type { Quote } from "../licensing/mod.ts";
import { peekArticle, readArticle, type ReadDeps, type ReadResult } from "../reads/read_article.ts";
import type { Caller } from "../reads/requester.ts";
import { x402Protocol } from "./load.ts";
import type { PaymentPayload, PaymentRequirements, X402Protocol } from "./protocol.ts";

/** What a paid read needs: the read path's deps, the configuration and a log. */
export interface X402Deps extends ReadDeps {
  config: X402Config;
  log: Logger;
}

/** The read to pay for: the unpaid decision's quote and the resource's URL as advertised. */
export interface X402ReadRequest {
  publisher: Publisher;
  article: Article;
  /** The caller as decided without a buyer (it was quoted `quote`). */
  caller: Caller;
  quote: Quote;
  resourceUrl: string;
  /** The request's `PAYMENT-SIGNATURE`. */
  signature: string;
}

/** A paid read, or why none was made (nothing charged, nothing settled). */
export type X402Outcome =
  | {
    kind: "paid";
    read: ReadResult;
    buyerId: string;
    /** The `PAYMENT-RESPONSE` header. */
    paymentResponse: string;
  }
  | {
    kind: "refused";
    reason: string;
    /** The `PAYMENT-REQUIRED` header to answer again (null: the facilitator is unreachable). */
    paymentRequired: string | null;
  };

const REPLAYED = "This payment was already used: an x402 payment pays for one read.";

/** EIP-3009's authorisation inside an exact-scheme payload. */
interface Authorization {
  from: string;
  to: string;
  value: string;
  validBefore: string;
  nonce: string;
}

/**
 * Pays for `req`'s read with its payment and makes the read; every refusal before settlement
 * leaves the chain and the ledger as they were.
 */
export async function payForRead(deps: X402Deps, req: X402ReadRequest): Promise<X402Outcome> {
  let protocol: X402Protocol;
  let accepts: PaymentRequirements[];
  try {
    protocol = await x402Protocol(deps.config);
    accepts = await protocol.requirements(req.quote.micros);
  } catch (err) {
    deps.log.warn("x402 unavailable (facilitator or packages)", { error: String(err) });
    return {
      kind: "refused",
      reason: "The payment facilitator cannot be reached: nothing was charged, retry later.",
      paymentRequired: null,
    };
  }
  const refuse = async (reason: string): Promise<X402Outcome> => ({
    kind: "refused",
    reason,
    paymentRequired: await protocol.paymentRequired(accepts, req.resourceUrl, reason),
  });

  let payload: PaymentPayload;
  try {
    payload = protocol.decode(req.signature);
  } catch {
    return refuse("PAYMENT-SIGNATURE is not a base64-encoded x402 payment payload.");
  }
  if (payload.x402Version !== 2) return refuse("Only x402 version 2 payments are accepted.");
  if (payload.resource?.url !== req.resourceUrl) {
    return refuse(`The payment is for another resource: pay for ${req.resourceUrl}.`);
  }
  const requirement = protocol.match(accepts, payload);
  if (!requirement) return refuse(mismatchOf(payload.accepted, accepts[0]));
  const authorization = authorizationOf(payload);
  if (!authorization) return refuse("The payment is not an EIP-3009 transfer authorisation.");
  // Looked up first for a clear answer; the reservation below is what guards, across processes.
  const replayKey = [
    requirement.network,
    requirement.asset,
    authorization.from,
    authorization.nonce,
  ]
    .join("|").toLowerCase();
  if (await x402ReplayKeyTaken(deps.db, replayKey)) return refuse(REPLAYED);

  let payer: string;
  try {
    const verified = await protocol.verify(payload, requirement);
    if (!verified.isValid) {
      return refuse(`The payment did not verify: ${verified.invalidReason ?? "invalid"}.`);
    }
    payer = verified.payer ?? authorization.from;
  } catch (err) {
    deps.log.warn("x402 verify failed", { error: String(err) });
    return refuse("The payment could not be verified: nothing was charged.");
  }

  // The payer's account, and the decision as that buyer: it must charge what was paid.
  const now = deps.clock.now();
  const buyerId = await ensurePayerBuyer(deps.db, payer, now);
  const caller: Caller = { ...req.caller, buyerId, identity: `buyer:${buyerId}` };
  const read = { publisher: req.publisher, idOrUrl: req.article.id, article: req.article, caller };
  const { decision } = await peekArticle(deps, { ...read, use: "display" });
  if (!decision?.charge || decision.charge.micros !== req.quote.micros) {
    return refuse(decision?.reason ?? "This page cannot be paid for now.");
  }

  const paymentId = newId("x402");
  const reserved = await reserveX402Payment(deps.db, {
    id: paymentId,
    replayKey,
    network: requirement.network,
    asset: requirement.asset,
    payer: payer.toLowerCase(),
    buyerId,
    publisherId: req.publisher.id,
    articleId: req.article.id,
    resource: req.resourceUrl,
    amountMicros: decision.charge.micros,
    feeMicros: decision.charge.feeMicros,
    useCase: decision.charge.use,
    payload: JSON.stringify(payload),
    requirements: JSON.stringify(requirement),
    validBefore: Number(authorization.validBefore) * 1000,
    createdAt: now.getTime(),
  });
  if (!reserved) return refuse(REPLAYED);

  const settled = await settle(deps, protocol, paymentId, payload, requirement);
  if (!settled.ok) return refuse(settled.reason);

  const paid = await readArticle(deps, {
    ...read,
    use: "display",
    idempotencyKey: `x402:${paymentId}`,
    paidVia: "x402",
  });
  if (!paid.charge) {
    // Settled, yet the ledger refused it (a cap taken meanwhile): the row stays `settled` for the
    // operator and for reconciliation on start (reconcile.ts), which charge it by its key.
    deps.log.error("x402 payment settled but not charged", { paymentId, tx: settled.tx });
    return refuse("The payment settled but the read could not be recorded; it will be reconciled.");
  }
  await moveX402Payment(deps.db, paymentId, "settled", {
    state: "charged",
    chargeId: paid.charge.chargeId,
    now: deps.clock.now(),
  });
  return {
    kind: "paid",
    read: paid,
    buyerId,
    paymentResponse: protocol.paymentResponse(settled.response),
  };
}

async function settle(
  deps: X402Deps,
  protocol: X402Protocol,
  paymentId: string,
  payload: PaymentPayload,
  requirement: PaymentRequirements,
): Promise<
  | { ok: true; tx: string; response: Awaited<ReturnType<X402Protocol["settle"]>> }
  | { ok: false; reason: string }
> {
  const failed = async (error: string) => {
    await moveX402Payment(deps.db, paymentId, "settling", {
      state: "failed",
      error,
      now: deps.clock.now(),
    });
    return {
      ok: false as const,
      reason: `The payment did not settle (${error}): nothing was charged.`,
    };
  };
  let response;
  try {
    response = await protocol.settle(payload, requirement);
  } catch (err) {
    // A timeout is indeterminate (the facilitator may still settle): the row stays `settling`
    // for reconciliation; anything else did not reach the chain.
    if (err instanceof Error && err.name === "FacilitatorTimeoutError") {
      deps.log.error("x402 settlement indeterminate", { paymentId, error: String(err) });
      return {
        ok: false,
        reason: "The payment's settlement did not answer in time; it will be reconciled.",
      };
    }
    const reason = (err as { errorReason?: string }).errorReason ?? "facilitator_error";
    deps.log.warn("x402 settle failed", { paymentId, error: String(err) });
    return failed(reason);
  }
  if (!response.success || !response.transaction) {
    return failed(response.errorReason ?? "settlement_failed");
  }
  await moveX402Payment(deps.db, paymentId, "settling", {
    state: "settled",
    txHash: response.transaction,
    now: deps.clock.now(),
  });
  return { ok: true, tx: response.transaction, response };
}

function authorizationOf(payload: PaymentPayload): Authorization | null {
  const a = (payload.payload as { authorization?: Partial<Authorization> }).authorization;
  if (!a || typeof a !== "object") return null;
  const fields = ["from", "to", "value", "validBefore", "nonce"] as const;
  return fields.every((f) => typeof a[f] === "string") ? a as Authorization : null;
}

/** Why an accepted requirement is not this resource's, in the payer's terms. */
function mismatchOf(accepted: PaymentRequirements | undefined, ours: PaymentRequirements): string {
  if (!accepted) return "The payment names no accepted requirements.";
  if (accepted.network !== ours.network) return `Pay on ${ours.network}, not ${accepted.network}.`;
  if (accepted.asset.toLowerCase() !== ours.asset.toLowerCase()) {
    return `Pay in the token ${ours.asset}.`;
  }
  if (accepted.payTo.toLowerCase() !== ours.payTo.toLowerCase()) {
    return `Pay to ${ours.payTo}.`;
  }
  if (/^\d+$/.test(accepted.amount) && BigInt(accepted.amount) < BigInt(ours.amount)) {
    return `Underpaid: this read costs ${ours.amount} base units, the payment offers ${accepted.amount}.`;
  }
  return "The payment does not match this page's payment requirements.";
}
