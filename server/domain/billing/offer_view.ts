/**
 * Offers and license requests as buyers and their agents see them (marketplace API, buyer portal,
 * MCP): one state per request that says where it stands, with the publisher's reason for a denial
 * and the dates of an offer's expiry. Amounts in US cents, exact (fractional after proration).
 */
import type { LicenseOffer } from "../../../store/license_offers.ts";
import type { LicenseRequest } from "../../../store/license_requests.ts";
import { microsToCents, usdPriceText } from "../../platform/money.ts";
import { offerState } from "./offers.ts";
import { firstCharge } from "./periods.ts";

/** Where a request stands for the buyer. */
export type RequestStatus = "pending" | "offered" | "accepted" | "declined" | "expired" | "denied";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An offer as its buyer sees it at `now`. */
export function presentOffer(o: LicenseOffer, now: Date, publisherName: string) {
  const state = offerState(o, now);
  const first = state === "open" ? firstCharge(o.monthlyMicros, now) : null;
  return {
    offerId: o.id,
    requestId: o.requestId,
    publisherId: o.publisherId,
    publisherName,
    kind: o.kind,
    useCases: o.useCases,
    monthlyPriceUsdCents: microsToCents(o.monthlyMicros),
    termMonths: o.termMonths,
    note: o.note,
    state,
    expiresAt: iso(o.expiresAt),
    createdAt: iso(o.createdAt)!,
    decidedAt: state === "expired" ? iso(o.expiresAt) : iso(o.decidedAt),
    licenseId: o.licenseId,
    declineReason: o.declineReason,
    /** What accepting now bills: the rest of this month, prorated to the second. */
    acceptNow: first
      ? {
        firstChargeUsdCents: microsToCents(first.micros),
        periodEnd: first.periodEnd.toISOString(),
        quotedAt: now.toISOString(),
      }
      : null,
  };
}

/** Where a request stands: pending, denied, or its offer's state. */
export function requestStatus(
  r: Pick<LicenseRequest, "state">,
  offer: LicenseOffer | null,
  now: Date,
): RequestStatus {
  if (r.state !== "approved" || !offer) return r.state === "approved" ? "accepted" : r.state;
  const state = offerState(offer, now);
  return state === "open" ? "offered" : state;
}

/** One sentence an agent or a person reads about where the request stands. */
export function statusSentence(
  r: Pick<LicenseRequest, "reason" | "useCase">,
  status: RequestStatus,
  offer: LicenseOffer | null,
  publisherName: string,
): string {
  switch (status) {
    case "pending":
      return `${publisherName} has not decided yet.`;
    case "denied":
      return `${publisherName} denied the request` + (r.reason ? `: ${r.reason}` : ".");
    case "offered":
      return `${publisherName} offers ${offer!.useCases.join(", ")} for ` +
        `${usdPriceText(offer!.monthlyMicros)} a month` +
        (offer!.termMonths ? ` for ${offer!.termMonths} months` : "") +
        `, open until ${iso(offer!.expiresAt)}. Nothing is billed until the buyer accepts ` +
        `(POST /api/marketplace/offers/${offer!.id}/accept, or the buyer portal's Offers page).`;
    case "accepted":
      return `The offer was accepted: license ${offer?.licenseId ?? "granted"} is active.`;
    case "declined":
      return "The buyer declined the offer" +
        (offer?.declineReason ? `: ${offer.declineReason}` : ".");
    case "expired":
      return `${publisherName}'s offer expired at ${iso(offer!.expiresAt)} without being ` +
        "accepted; ask again with request_license.";
  }
}

/** A request as its buyer sees it, with its offer. */
export function presentBuyerRequest(
  r: LicenseRequest,
  offer: LicenseOffer | null,
  now: Date,
  publisherName: string,
) {
  const state = requestStatus(r, offer, now);
  return {
    requestId: r.id,
    publisherId: r.publisherId,
    publisherName,
    useCase: r.useCase,
    enterprise: r.enterprise,
    message: r.message,
    maxMonthlyUsdCents: r.maxMonthlyMicros === null ? null : microsToCents(r.maxMonthlyMicros),
    state,
    /** The publisher's reason for a denial. */
    reason: r.state === "denied" ? r.reason : null,
    summary: statusSentence(r, state, offer, publisherName),
    createdAt: r.createdAt,
    decidedAt: r.decidedAt,
    offer: offer ? presentOffer(offer, now, publisherName) : null,
  };
}
