/**
 * License requests as the management API shows them: who asked (server/surfaces/manage/callers.ts) and the
 * buyer billed, the rights asked and the most the buyer will pay, the decision (when, price, term,
 * reason) and the offer it made with its state, prices in US cents.
 */
import type { LicenseRequest } from "../../domain/billing/license_requests.ts";
import { type LicenseOffer, offerState } from "../../domain/billing/offers.ts";
import { offersOfRequests } from "../../../store/license_offers.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { UseCase } from "../../domain/licensing/mod.ts";
import { microsToCents } from "../../platform/money.ts";
import { describeCallers } from "./callers.ts";

/** Requests with their requester and buyer resolved in one lookup. */
export async function presentRequests(
  db: Client,
  publisher: Pick<Publisher, "enterpriseTerms">,
  requests: LicenseRequest[],
  now: Date,
) {
  const [callerOf, offers] = await Promise.all([
    describeCallers(db, [
      ...requests.map((r) => r.identity),
      ...requests.map((r) => r.buyerId && `buyer:${r.buyerId}`),
    ]),
    offersOfRequests(db, requests.map((r) => r.id)),
  ]);
  return requests.map(({ priceMicros, maxMonthlyMicros, ...r }) => {
    const buyer = r.buyerId ? callerOf(`buyer:${r.buyerId}`) : null;
    const offer = offers.get(r.id);
    return {
      ...r,
      requester: callerOf(r.identity),
      buyerName: buyer?.kind === "buyer" ? buyer.name : null,
      rightsAsked: rightsAsked(publisher, r),
      monthlyPriceUsdCents: priceMicros === null ? null : microsToCents(priceMicros),
      maxMonthlyUsdCents: maxMonthlyMicros === null ? null : microsToCents(maxMonthlyMicros),
      offer: offer ? presentOfferToPublisher(offer, now) : null,
    };
  });
}

/** The offer an approval made, and where it stands at `now`. */
export function presentOfferToPublisher(o: LicenseOffer, now: Date) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const state = offerState(o, now);
  return {
    id: o.id,
    kind: o.kind,
    useCases: o.useCases,
    monthlyPriceUsdCents: microsToCents(o.monthlyMicros),
    termMonths: o.termMonths,
    note: o.note,
    state,
    expiresAt: iso(o.expiresAt)!,
    decidedAt: state === "expired" ? iso(o.expiresAt) : iso(o.decidedAt),
    licenseId: o.licenseId,
    declineReason: o.declineReason,
  };
}

/** The use asked for, and for an enterprise request the uses of the enterprise terms. */
function rightsAsked(
  publisher: Pick<Publisher, "enterpriseTerms">,
  r: Pick<LicenseRequest, "useCase" | "enterprise">,
): UseCase[] {
  const extra = r.enterprise ? publisher.enterpriseTerms?.useCases ?? [] : [];
  return [...new Set([...extra, r.useCase as UseCase])];
}
