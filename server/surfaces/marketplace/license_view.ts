/**
 * A license as its buyer sees it at `now` (GET /api/marketplace/licenses and the answers that
 * return one), with its next renewal and, for cancellation, what canceling does.
 */
import type { License } from "../../../store/licenses.ts";
import { cancelEffect } from "../../domain/billing/cancel.ts";
import { renewsAt } from "../../domain/billing/periods.ts";
import { microsToCents, microsToWholeCents } from "../../platform/money.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A license as the buyer sees it, at `now`. */
export function presentLicense(l: License, now: Date) {
  const over = l.state === "active" && l.expiresAt !== null && l.expiresAt <= now.getTime();
  const cancelRequested = l.cancelRequestedAt !== null;
  return {
    licenseId: l.id,
    publisherId: l.publisherId,
    kind: l.kind,
    useCases: l.useCases,
    // A license past its end grants nothing: "canceled" when the buyer ended it, else "expired".
    state: over ? (cancelRequested ? "canceled" as const : "expired" as const) : l.state,
    monthlyFeeUsdCents: microsToWholeCents(l.monthlyFeeMicros),
    checkoutUrl: l.state === "pending" ? l.checkoutUrl : null,
    createdAt: iso(l.createdAt)!,
    activatedAt: iso(l.activatedAt),
    canceledAt: over && cancelRequested ? iso(l.expiresAt) : iso(l.canceledAt),
    /** Set once the buyer canceled: the license runs until then and is not renewed. */
    cancelsAt: cancelRequested && !over ? iso(l.expiresAt) : null,
    expiresAt: iso(l.expiresAt),
    renewsAt: over ? null : renewsAt(l, now)?.toISOString() ?? null,
  };
}

/** The license with what canceling it at `now` does (or, once canceled, did). */
export function presentCancel(l: License, now: Date) {
  const e = cancelEffect(l, now);
  return {
    ...presentLicense(l, now),
    effect: {
      mode: e.mode,
      accessUntil: e.accessUntil.toISOString(),
      creditUsdCents: microsToCents(e.creditMicros),
      chargedUsdCents: microsToCents(e.chargedMicros),
      forgoneRenewalUsdCents: microsToCents(e.forgoneRenewalMicros),
      summary: e.summary,
    },
  };
}
