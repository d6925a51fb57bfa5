/**
 * The buyer's answers to an offer (docs/decisions/billing.md "Offers"): acceptOffer bills the
 * prorated first month within the buyer's budgets and starts the license; declineOffer bills
 * nothing. Each is one transition, the place to hook its event (server/domain/billing/offers.ts
 * has makeOffer and expireOffer).
 */
import type { Client } from "../../../store/db.ts";
import { insertSubscriptionCharge } from "../../../store/charges.ts";
import { newId, newTimeOrderedId } from "../../../store/ids.ts";
import { closeOffer, getBuyerOffer, type LicenseOffer } from "../../../store/license_offers.ts";
import { setRequestLicense } from "../../../store/license_requests.ts";
import { insertLicense } from "../../../store/licenses.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { assertFeeWithinBudgets } from "./budgets.ts";
import { monthsAfter } from "./license_requests.ts";
import { monthStart } from "./months.ts";
import { expireOffer, offerEventData, offerState } from "./offers.ts";
import { notify } from "../webhooks/events.ts";
import { usdDecimal } from "../../platform/money.ts";
import { billedFrom, firstCharge } from "./periods.ts";

type Transaction = Awaited<ReturnType<Client["transaction"]>>;

/** What accepting billed: the prorated first charge and when the period it pays for ends. */
export interface Acceptance {
  offer: LicenseOffer;
  licenseId: string;
  firstChargeMicros: number;
  periodEnd: Date;
}

/**
 * The buyer accepts its open offer: the license starts now and its prorated first month is billed
 * once, within the buyer's budgets (409 budget_exceeded otherwise, and nothing changes). With
 * `quotedAt` (the offer's `acceptNow.quotedAt` the buyer saw), the charge is the one quoted then
 * (`billedFrom`); else it is now's.
 */
export async function acceptOffer(
  db: Client,
  buyerId: string,
  offerId: string,
  options: { now: Date; quotedAt?: Date },
): Promise<Acceptance> {
  const billFrom = billedFrom(options.quotedAt, options.now);
  const tx = await db.transaction("write");
  try {
    const offer = await openOffer(tx, buyerId, offerId, "accept", options.now);
    const charge = firstCharge(offer.monthlyMicros, billFrom);
    if (charge.micros > 0) {
      await assertFeeWithinBudgets(tx, buyerId, {
        publisherId: offer.publisherId,
        month: charge.month,
        feeMicros: charge.micros,
      });
    }
    const licenseId = newId("lic");
    await insertLicense(tx, buyerId, {
      id: licenseId,
      publisherId: offer.publisherId,
      kind: offer.kind,
      useCases: offer.useCases,
      monthlyFeeMicros: offer.monthlyMicros,
      termMonths: offer.termMonths,
      state: "active",
      terms: offer.terms,
      expiresAt: offer.termMonths === null
        ? null
        : monthStart(monthsAfter(charge.month, offer.termMonths)),
      now: options.now,
    });
    if (charge.micros > 0) {
      await insertSubscriptionCharge(tx, buyerId, {
        id: newTimeOrderedId("chg", options.now),
        licenseId,
        publisherId: offer.publisherId,
        feeMicros: charge.micros,
        month: charge.month,
        prepaid: false,
        now: options.now,
      });
    }
    if (!await closeOffer(tx, offer.id, { state: "accepted", licenseId, now: options.now })) {
      throw new AppError(409, "offer_closed", "The offer was answered meanwhile; nothing changed");
    }
    await setRequestLicense(tx, offer.requestId, licenseId);
    await notify(tx, { kind: "publisher", id: offer.publisherId }, "offer.accepted", {
      ...offerEventData(offer),
      licenseId,
      firstChargeUsd: usdDecimal(charge.micros),
    }, { now: options.now });
    await tx.commit();
    return {
      offer: { ...offer, state: "accepted", licenseId, decidedAt: options.now.getTime() },
      licenseId,
      firstChargeMicros: charge.micros,
      periodEnd: charge.periodEnd,
    };
  } finally {
    tx.close();
  }
}

/** The buyer declines its open offer, with its reason if it gives one; nothing is billed. */
export async function declineOffer(
  db: Client,
  buyerId: string,
  offerId: string,
  options: { reason?: string | null; now: Date },
): Promise<LicenseOffer> {
  const tx = await db.transaction("write");
  try {
    const offer = await openOffer(tx, buyerId, offerId, "decline", options.now);
    const declineReason = options.reason ?? null;
    if (!await closeOffer(tx, offer.id, { state: "declined", declineReason, now: options.now })) {
      throw new AppError(409, "offer_closed", "The offer was answered meanwhile; nothing changed");
    }
    await notify(tx, { kind: "publisher", id: offer.publisherId }, "offer.declined", {
      ...offerEventData(offer),
      reason: declineReason,
    }, { now: options.now });
    await tx.commit();
    return { ...offer, state: "declined", declineReason, decidedAt: options.now.getTime() };
  } finally {
    tx.close();
  }
}

/** The buyer's offer if it can still be answered; a clear 404 or 409 otherwise. */
async function openOffer(
  tx: Transaction,
  buyerId: string,
  offerId: string,
  action: "accept" | "decline",
  now: Date,
): Promise<LicenseOffer> {
  // Another buyer's offer is not found: its id tells nothing about it.
  const offer = await getBuyerOffer(tx, buyerId, offerId);
  if (!offer) throw notFound("Offer");
  const state = offerState(offer, now);
  if (state === "open") return offer;
  if (state === "expired" && offer.state === "open") {
    // The clock already made it expired; record that, so the answer and the row agree.
    await expireOffer(tx, offer, now);
    await tx.commit();
  }
  const at = new Date(state === "expired" ? offer.expiresAt : offer.decidedAt ?? 0).toISOString();
  throw new AppError(
    409,
    `offer_${state}`,
    `Cannot ${action} the offer: it was already ${state} (${at}); nothing changed`,
  );
}
