/**
 * Subscriptions (docs/SPEC.md "License", "Rate card", "States": License): priced from the rate card,
 * activated at once and invoiced when no payment processor is configured, or activated exactly once
 * when checkout completes (the buyer's return or the signed webhook, whichever comes first).
 * Invoiced, a license bought mid-month is billed the rest of the month prorated to the second and
 * within the buyer's budgets, then renews on the 1st (UTC) (docs/decisions/billing.md
 * "Proration"); with a processor its checkout bills the whole month.
 */
import { insertSubscriptionCharge } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import { newId, newTimeOrderedId } from "../../../store/ids.ts";
import {
  activateByCheckout,
  billableLicenses,
  cancelLicense,
  findPendingLicense,
  heldUseCases,
  insertLicense,
  type License,
  licenseOfCheckout,
  setCheckout,
} from "../../../store/licenses.ts";
import type { Executor } from "../../../store/db.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { monthOf } from "../../platform/clock.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { purchasable, type UseCase } from "../licensing/mod.ts";
import {
  microsToWholeCents,
  priceSubscription,
  type RateCardUseCase,
} from "../../platform/money.ts";
import { monthStart } from "./months.ts";
import { assertFeeWithinBudgets } from "./budgets.ts";
import { billedFrom, firstCharge } from "./periods.ts";
import { checkoutPaid, type CheckoutSession, type PaymentProcessor } from "./processor.ts";

// Stripe sessions expire after 24 h; an older pending checkout is replaced, not reused.
const CHECKOUT_REUSE_MS = 23 * 3600_000;

/** The answer to a subscription request. */
export type SubscribeResult =
  | {
    state: "active";
    licenseId: string;
    monthlyFeeMicros: number;
    useCases: RateCardUseCase[];
    firstChargeMicros: number;
    periodEnd: Date;
  }
  | { state: "pending"; licenseId: string; checkoutUrl: string; monthlyFeeMicros: number };

/**
 * Subscribes the buyer to `useCases` of the publisher (the request body is already parsed with
 * `licenseInputSchema`, server/surfaces/marketplace/schemas.ts); refuses rights the publisher does not grant.
 */
export async function subscribe(
  deps: { db: Client; processor: PaymentProcessor | null; baseUrl: string },
  buyer: { id: string; email: string },
  input: { publisherId: string; useCases: readonly RateCardUseCase[]; now: Date; quotedAt?: Date },
): Promise<SubscribeResult> {
  const { db } = deps;
  // A Set so that ["rag", "rag"] is one use; sorted so equal requests read alike.
  const useCases = [...new Set(input.useCases)].sort();
  const publisher = await getPublisher(db, input.publisherId);
  if (!publisher) throw notFound("Publisher");
  // The rights table (docs/decisions/licensing.md): only what the publisher grants today is for
  // sale; a withdrawn use stays with current subscribers but cannot be bought anew.
  const forSale: readonly string[] = purchasable(publisher.rights);
  const denied = useCases.filter((u) => !forSale.includes(u));
  if (denied.length) {
    throw invalid("useCases", `${publisher.name} does not grant ${denied.join(", ")}`);
  }
  const alreadyLicensed = async (tx: Executor) => {
    const held = await heldUseCases(tx, buyer.id, publisher.id, { now: input.now });
    if (useCases.every((u) => held.includes(u))) {
      throw new AppError(
        409,
        "already_licensed",
        `An active license already covers ${useCases.join(", ")} for ${publisher.name}`,
      );
    }
  };
  await alreadyLicensed(db);
  const fee = priceSubscription(useCases);
  const base = { publisherId: publisher.id, kind: "subscription" as const, useCases };
  if (!deps.processor) {
    const licenseId = newId("lic");
    const first = firstCharge(fee, billedFrom(input.quotedAt, input.now));
    const tx = await db.transaction("write");
    try {
      // Checked again inside the write transaction: a double-click must not buy twice (B13).
      await alreadyLicensed(tx);
      await assertFeeWithinBudgets(tx, buyer.id, {
        publisherId: publisher.id,
        month: first.month,
        feeMicros: first.micros,
      });
      const row = { ...base, id: licenseId, monthlyFeeMicros: fee, state: "active" as const };
      await insertLicense(tx, buyer.id, { ...row, now: input.now });
      await billMonth(tx, { ...row, monthlyFeeMicros: first.micros, buyerId: buyer.id }, {
        month: first.month,
        prepaid: false,
        now: input.now,
      });
      await tx.commit();
    } finally {
      tx.close();
    }
    return {
      state: "active",
      licenseId,
      monthlyFeeMicros: fee,
      useCases,
      firstChargeMicros: first.micros,
      periodEnd: first.periodEnd,
    };
  }
  // The checkout bills the whole first month: refused now if that would pass a budget.
  await assertFeeWithinBudgets(db, buyer.id, {
    publisherId: publisher.id,
    month: monthOf(input.now),
    feeMicros: fee,
  });
  const pending = await pendingCheckout(db, buyer.id, { ...base, fee, now: input.now });
  if (pending.checkoutUrl) {
    return {
      state: "pending",
      licenseId: pending.id,
      checkoutUrl: pending.checkoutUrl,
      monthlyFeeMicros: fee,
    };
  }
  const { sessionId, url } = await deps.processor.createCheckout({
    licenseId: pending.id,
    buyerEmail: buyer.email,
    description: `${publisher.name}: ${useCases.join(", ")} (monthly license)`,
    monthlyUsdCents: microsToWholeCents(fee),
    successUrl: `${deps.baseUrl}/api/marketplace/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${deps.baseUrl}/api/marketplace/checkout/cancel?session_id={CHECKOUT_SESSION_ID}`,
    idempotencyKey: `folio-checkout-${pending.id}`,
  });
  await setCheckout(db, pending.id, { sessionId, url });
  return { state: "pending", licenseId: pending.id, checkoutUrl: url, monthlyFeeMicros: fee };
}

/** Confirms a checkout with the processor and activates its license once. */
export async function completeCheckout(
  deps: { db: Client; processor: PaymentProcessor },
  sessionId: string,
  options: { now: Date },
): Promise<{ activated: boolean; state: "pending" | "active" | "canceled" | "unknown" }> {
  const session = await deps.processor.retrieveCheckout(sessionId);
  const tx = await deps.db.transaction("write");
  try {
    const activated = await activateSession(tx, session, options);
    const license = await licenseOfCheckout(tx, sessionId);
    await tx.commit();
    return { activated, state: license?.state ?? "unknown" };
  } finally {
    tx.close();
  }
}

/** Activates the session's license if the processor says it is paid; true on the one transition. */
export async function activateSession(
  tx: Executor,
  session: CheckoutSession,
  options: { now: Date },
): Promise<boolean> {
  if (!checkoutPaid(session)) return false;
  const license = await activateByCheckout(tx, session.id, {
    subscriptionId: session.subscriptionId,
    now: options.now,
  });
  if (!license) return false;
  await billMonth(tx, license, { month: monthOf(options.now), prepaid: true, now: options.now });
  return true;
}

/** Cancels the license of an expired checkout or a deleted processor subscription. */
export function cancelByProcessor(
  tx: Executor,
  where: { sessionId?: string; subscriptionId?: string },
  options: { now: Date },
): Promise<boolean> {
  return cancelLicense(tx, {
    pendingCheckoutSessionId: where.sessionId,
    processorSubscriptionId: where.subscriptionId,
  }, options);
}

/**
 * Month roll (run by cron on the 1st, UTC, and safe to run again): adds `month`'s fee for every
 * active license with a monthly fee that started before the month. Returns the rows added.
 */
export async function rollMonth(
  db: Client,
  options: { month: string; now: Date },
): Promise<number> {
  let added = 0;
  for (const license of await billableLicenses(db, monthStart(options.month))) {
    const prepaid = license.kind === "subscription" && license.checkoutSessionId !== null;
    if (await billMonth(db, license, { month: options.month, prepaid, now: options.now })) added++;
  }
  return added;
}

function billMonth(
  tx: Executor,
  license: Pick<License, "id" | "buyerId" | "publisherId" | "monthlyFeeMicros">,
  options: { month: string; prepaid: boolean; now: Date },
): Promise<boolean> {
  return insertSubscriptionCharge(tx, license.buyerId, {
    id: newTimeOrderedId("chg", options.now),
    licenseId: license.id,
    publisherId: license.publisherId,
    feeMicros: license.monthlyFeeMicros,
    ...options,
  });
}

async function pendingCheckout(
  db: Client,
  buyerId: string,
  l: { publisherId: string; useCases: UseCase[]; fee: number; now: Date },
): Promise<License> {
  const tx = await db.transaction("write");
  try {
    let pending = await findPendingLicense(tx, buyerId, l);
    if (pending && l.now.getTime() - pending.createdAt > CHECKOUT_REUSE_MS) {
      await cancelLicense(tx, { id: pending.id }, { now: l.now });
      pending = null;
    }
    if (!pending) {
      const id = newId("lic");
      await insertLicense(tx, buyerId, {
        id,
        publisherId: l.publisherId,
        kind: "subscription",
        useCases: l.useCases,
        monthlyFeeMicros: l.fee,
        state: "pending",
        now: l.now,
      });
      pending = (await findPendingLicense(tx, buyerId, l))!;
    }
    await tx.commit();
    return pending;
  } finally {
    tx.close();
  }
}
