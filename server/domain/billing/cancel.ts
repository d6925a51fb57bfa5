/**
 * A buyer ends a license (POST /api/marketplace/licenses/<id>/cancel): a pending checkout ends at
 * once; an active license keeps its rights to the end of the month already billed and is never
 * billed again (no proration, as renewals: docs/SPEC.md "Buyer marketplace API"). With a payment
 * processor the subscription is told first, so a refusal there changes nothing here.
 */
import type { Client } from "../../../store/db.ts";
import { cancelLicense, endLicenseAt, getLicense, type License } from "../../../store/licenses.ts";
import { monthOf } from "../../platform/clock.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { monthStart, nextMonth } from "./months.ts";
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
  const endsAt = monthStart(nextMonth(monthOf(options.now)));
  return await endLicenseAt(db, buyerId, licenseId, { endsAt, now: options.now }) ??
    (await getLicense(db, buyerId, licenseId))!;
}
