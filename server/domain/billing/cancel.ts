/**
 * A buyer ends a license (POST /api/marketplace/licenses/<id>/cancel): a pending checkout ends at
 * once; an active license keeps its rights to the end of the period already billed and is never
 * billed again: Stripe's cancel_at_period_end, so nothing is credited and nothing more charged
 * (docs/decisions/billing.md "Proration"). `cancelEffect()` states this before it happens. With a
 * payment processor the subscription is told first, so a refusal there changes nothing here.
 */
import type { Client } from "../../../store/db.ts";
import { cancelLicense, endLicenseAt, getLicense, type License } from "../../../store/licenses.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { usdPriceText } from "../../platform/money.ts";
import { periodOf, renewsAt } from "./periods.ts";
import type { PaymentProcessor } from "./processor.ts";

/** Cancels the buyer's license at the end of the current month; a repeat answers the same. */
export async function cancelAtPeriodEnd(
  deps: { db: Client; processor: PaymentProcessor | null },
  buyerId: string,
  licenseId: string,
  options: { now: Date },
): Promise<License> {
  const { db } = deps;
  const license = await getLicense(db, buyerId, licenseId);
  if (!license) throw notFound("License");
  if (license.state === "canceled") {
    throw new AppError(409, "already_canceled", "The license is already canceled");
  }
  if (license.state === "pending") {
    await cancelLicense(db, { id: license.id }, options);
    return (await getLicense(db, buyerId, licenseId))!;
  }
  if (license.expiresAt !== null && license.expiresAt <= options.now.getTime()) {
    throw license.cancelRequestedAt !== null
      ? new AppError(409, "already_canceled", "The license is already canceled")
      : new AppError(409, "license_expired", "The license's term is already over");
  }
  if (license.cancelRequestedAt !== null) return license;
  if (license.processorSubscriptionId && deps.processor) {
    await deps.processor.cancelAtPeriodEnd(license.processorSubscriptionId);
  }
  const endsAt = periodOf(options.now).end;
  return await endLicenseAt(db, buyerId, licenseId, { endsAt, now: options.now }) ??
    (await getLicense(db, buyerId, licenseId))!;
}

/** What canceling does (or did), stated in money and dates. */
export interface CancelEffect {
  mode: "period_end" | "immediately";
  accessUntil: Date;
  creditMicros: number;
  chargedMicros: number;
  forgoneRenewalMicros: number;
  summary: string;
}

/**
 * What canceling `l` at `now` does: a pending checkout ends now; an active license keeps its uses
 * to the end of the paid period (or its term's end, if sooner), nothing is credited or charged, and
 * the renewal it would have had is not billed. For a license already canceled, what it did.
 */
export function cancelEffect(
  l: Pick<
    License,
    "state" | "monthlyFeeMicros" | "cancelRequestedAt" | "expiresAt" | "canceledAt"
  >,
  now: Date,
): CancelEffect {
  const none = { creditMicros: 0, chargedMicros: 0 };
  if (l.state !== "active") {
    const at = new Date(l.canceledAt ?? now.getTime());
    return {
      mode: "immediately",
      accessUntil: at,
      ...none,
      forgoneRenewalMicros: 0,
      summary: `The license ${l.state === "pending" ? "ends" : "ended"} at once (it was never ` +
        "paid for): nothing is charged or credited.",
    };
  }
  const end = periodOf(now).end.getTime();
  const until = new Date(l.expiresAt !== null && l.expiresAt < end ? l.expiresAt : end);
  // The renewal the license had before it was canceled (expiresAt then was its term's end).
  const renewal = l.cancelRequestedAt === null ? renewsAt(l, now) : renewsAt({
    ...l,
    cancelRequestedAt: null,
    expiresAt: l.expiresAt !== null && l.expiresAt > end ? l.expiresAt : null,
  }, now);
  const forgone = renewal ? l.monthlyFeeMicros : 0;
  return {
    mode: "period_end",
    accessUntil: until,
    ...none,
    forgoneRenewalMicros: forgone,
    summary: `The license keeps its uses until ${until.toISOString()}, the end of the period ` +
      "already paid, then ends. Nothing is credited for the rest of the period and nothing " +
      "more is charged" +
      (forgone
        ? `: the renewal of ${usdPriceText(forgone)} on ${renewal!.toISOString()} ` +
          "is not billed."
        : "."),
  };
}
