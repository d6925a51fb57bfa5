/**
 * Offers the buyer accepts (issue 29 item 2, docs/decisions/billing.md "Offers"). Approving a
 * license request makes an offer: uses, monthly price (never above the most the request said the
 * buyer will pay), term and an expiry. Nothing is billed until the buyer accepts; acceptance bills
 * the prorated first month within the buyer's budgets, exactly as a subscription the buyer buys
 * (server/domain/billing/periods.ts). One function per transition, so each is one place to hook
 * events on: makeOffer and expireOffer here, acceptOffer and declineOffer in offer_answers.ts.
 */
import type { Client, Executor } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import { notify } from "../webhooks/events.ts";
import { closeOffer, insertOffer, type LicenseOffer } from "../../../store/license_offers.ts";
import { decideLicenseRequest, type LicenseRequest } from "../../../store/license_requests.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { microsToCents, usdDecimal, usdPriceText } from "../../platform/money.ts";
import type { UseCase } from "../licensing/mod.ts";
import { buyerOfIdentity, pendingRequest } from "./license_requests.ts";

export type { LicenseOffer } from "../../../store/license_offers.ts";

/** How long an offer stays open unless the publisher says otherwise. */
export const DEFAULT_OFFER_DAYS = 14;

/** What the publisher offers on approval; all optional. */
export interface OfferTerms {
  /** Monthly price; default: the enterprise terms' price, or 0 (free). */
  monthlyPriceMicros?: number;
  /** Calendar months the license runs, the acceptance's month included; default: until canceled. */
  termMonths?: number;
  /** Days the buyer has to accept; default 14. */
  expiresInDays?: number;
  /** Words to the buyer. */
  note?: string | null;
}

/** The offer's state at `now`: an open offer past its expiry is expired. */
export function offerState(o: Pick<LicenseOffer, "state" | "expiresAt">, now: Date) {
  return o.state === "open" && o.expiresAt <= now.getTime() ? "expired" : o.state;
}

/** Approves a pending request with an offer to its buyer; nothing is billed. */
export async function makeOffer(
  db: Client,
  publisher: Publisher,
  options: { requestId: string; now: Date } & OfferTerms,
): Promise<{ request: LicenseRequest; offer: LicenseOffer }> {
  const tx = await db.transaction("write");
  try {
    const request = await pendingRequest(tx, publisher.id, options.requestId);
    const buyerId = request.buyerId ?? await buyerOfIdentity(tx, request.identity);
    if (!buyerId) {
      throw new AppError(
        409,
        "buyer_required",
        "The requester is not linked to a buyer account yet: they must sign up at " +
          "/api/marketplace/signup and register their client with POST /api/marketplace/clients",
      );
    }
    const enterprise = request.enterprise ? publisher.enterpriseTerms : null;
    if (request.enterprise && !enterprise) {
      throw new AppError(
        409,
        "enterprise_terms_missing",
        "Set enterprise terms before approving an enterprise request",
      );
    }
    const price = options.monthlyPriceMicros ?? enterprise?.monthlyPriceMicros ?? 0;
    if (request.maxMonthlyMicros !== null && price > request.maxMonthlyMicros) {
      throw invalid(
        "monthlyPriceUsdCents",
        `must be at most ${microsToCents(request.maxMonthlyMicros)} cents a month: the most ` +
          `the buyer said it will pay (${usdPriceText(request.maxMonthlyMicros)})`,
      );
    }
    const days = options.expiresInDays ?? DEFAULT_OFFER_DAYS;
    const offer: LicenseOffer = {
      id: newId("ofr"),
      requestId: request.id,
      publisherId: publisher.id,
      buyerId,
      kind: enterprise ? "enterprise" : "request",
      useCases: [...new Set([...(enterprise?.useCases ?? []), request.useCase as UseCase])],
      monthlyMicros: price,
      termMonths: options.termMonths ?? null,
      terms: enterprise ? JSON.stringify({ ...enterprise, monthlyPriceMicros: price }) : null,
      note: options.note ?? null,
      expiresAt: options.now.getTime() + days * 86_400_000,
      state: "open",
      licenseId: null,
      declineReason: null,
      decidedAt: null,
      createdAt: options.now.getTime(),
    };
    await insertOffer(tx, offer);
    const decided = {
      state: "approved" as const,
      buyerId,
      priceMicros: price,
      termMonths: offer.termMonths,
    };
    await decideLicenseRequest(tx, publisher.id, { id: request.id, ...decided, now: options.now });
    await notify(tx, { kind: "buyer", id: buyerId }, "offer.created", {
      ...offerEventData(offer),
      publisherName: publisher.name,
    }, { now: options.now });
    await tx.commit();
    return {
      request: { ...request, ...decided, decidedAt: options.now.toISOString(), reason: null },
      offer,
    };
  } finally {
    tx.close();
  }
}

/** Records that an open offer expired unanswered (its state is expired by the clock anyway). */
export async function expireOffer(db: Executor, offer: LicenseOffer, now: Date): Promise<boolean> {
  return await closeOffer(db, offer.id, { state: "expired", now });
}

/** What an offer's webhook events say of it (docs/decisions/webhooks.md). */
export function offerEventData(offer: LicenseOffer): Record<string, unknown> {
  return {
    offerId: offer.id,
    requestId: offer.requestId,
    publisherId: offer.publisherId,
    buyerId: offer.buyerId,
    useCases: offer.useCases,
    monthlyPriceUsd: usdDecimal(offer.monthlyMicros),
    termMonths: offer.termMonths,
    expiresAt: new Date(offer.expiresAt).toISOString(),
    note: offer.note,
  };
}
