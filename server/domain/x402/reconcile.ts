/**
 * Reconciliation on start (docs/decisions/x402.md "A crash between chain and ledger"): a payment
 * row still `settling` or `settled` is one a process left mid-way. `settled` (on chain, not yet
 * charged) is charged now through the billing path, by the read's own idempotency key, so a row
 * whose charge did commit is not charged twice. `settling` asks the token whether the
 * authorisation was spent (with FOLIO_X402_RPC_URL): spent, it is charged; unspent past its
 * validity, it failed and nothing moved; otherwise it waits for the next start.
 *
 * @module
 */
import { getPublisher } from "../../../store/publishers.ts";
import {
  moveX402Payment,
  openX402Payments,
  type X402Payment,
} from "../../../store/x402_payments.ts";
import type { Client } from "../../../store/db.ts";
import type { Clock } from "../../platform/clock.ts";
import type { X402Config } from "../../platform/config.ts";
import type { Logger } from "../../platform/log.ts";
import { chargeRead } from "../billing/metering.ts";
import type { UseCase } from "../licensing/mod.ts";
import { x402Protocol } from "./load.ts";

/** What reconciliation needs. */
export interface ReconcileDeps {
  db: Client;
  clock: Clock;
  log: Logger;
  config: X402Config;
}

/** Settles the books of every payment a crash left open; answers how many it charged. */
export async function reconcileX402(deps: ReconcileDeps): Promise<number> {
  let charged = 0;
  for (const payment of await openX402Payments(deps.db)) {
    try {
      if (payment.state === "settling" && !(await settledOnChain(deps, payment))) continue;
      if (await chargeSettled(deps, payment)) charged++;
    } catch (err) {
      deps.log.error("x402 reconciliation failed", { paymentId: payment.id, error: String(err) });
    }
  }
  return charged;
}

/** Moves a `settling` row on by what the chain says; true when it is now `settled`. */
async function settledOnChain(deps: ReconcileDeps, p: X402Payment): Promise<boolean> {
  const { payload } = JSON.parse(p.payload) as {
    payload: { authorization: { from: string; nonce: string } };
  };
  const protocol = await x402Protocol(deps.config);
  const seen = await protocol.onChain(payload.authorization.from, payload.authorization.nonce);
  const now = deps.clock.now();
  if (!seen) {
    deps.log.warn("x402 payment left settling: set FOLIO_X402_RPC_URL to reconcile it", {
      paymentId: p.id,
    });
    return false;
  }
  if (seen.used) {
    return await moveX402Payment(deps.db, p.id, "settling", {
      state: "settled",
      txHash: seen.tx ?? undefined,
      now,
    });
  }
  // Unspent and no longer spendable: it never will be, and nothing moved.
  if (p.validBefore <= now.getTime()) {
    await moveX402Payment(deps.db, p.id, "settling", { state: "failed", error: "expired", now });
  }
  return false;
}

/** Charges a settled payment as its read would have; true when this call wrote the charge. */
async function chargeSettled(deps: ReconcileDeps, p: X402Payment): Promise<boolean> {
  const publisher = await getPublisher(deps.db, p.publisherId);
  if (!publisher) throw new Error(`publisher ${p.publisherId} is gone`);
  const result = await chargeRead(deps.db, {
    buyerId: p.buyerId,
    publisherId: p.publisherId,
    articleId: p.articleId,
    charge: {
      micros: p.amountMicros,
      feeMicros: p.feeMicros,
      use: p.useCase as UseCase,
      kind: "landing",
    },
    identity: `buyer:${p.buyerId}`,
    surface: "landing",
    // The paid read's own key: a charge that committed before the crash is found, not repeated.
    idempotencyKey: `x402:${p.id}`,
    paidVia: "x402",
    now: deps.clock.now(),
  });
  if (result.status === "capped") {
    deps.log.error("x402 payment settled but the cap refuses its charge", { paymentId: p.id });
    return false;
  }
  await moveX402Payment(deps.db, p.id, "settled", {
    state: "charged",
    chargeId: result.chargeId,
    now: deps.clock.now(),
  });
  deps.log.info("x402 payment reconciled", { paymentId: p.id, chargeId: result.chargeId });
  return result.status === "charged";
}
