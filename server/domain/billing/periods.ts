/**
 * Billing periods and proration (docs/decisions/billing.md "Proration"): a license's period is the
 * calendar month in UTC, renewed on the 1st. A license bought mid-month pays, as Stripe prorates,
 * for the seconds left in the month; a cancellation takes effect at the period's end (Stripe's
 * `cancel_at_period_end`), so the buyer keeps what it paid for and nothing is credited or charged
 * again.
 */
import type { License } from "../../../store/licenses.ts";
import { monthOf } from "../../platform/clock.ts";
import { invalid } from "../../platform/errors.ts";
import { prorateMicros } from "../../platform/money.ts";
import { monthStart, nextMonth } from "./months.ts";

/** The billing period containing `at`: its month, first instant and end (next month's start). */
export function periodOf(at: Date): { month: string; start: Date; end: Date } {
  const month = monthOf(at);
  return { month, start: monthStart(month), end: monthStart(nextMonth(month)) };
}

/** How old a quoted first charge may be and still be billed as quoted. */
export const QUOTE_LIFETIME_MS = 3_600_000;

/**
 * The moment a first charge is prorated from (docs/decisions/billing.md "Offers": what is billed
 * is what was shown): `quotedAt`, the moment a page or an answer computed the figure the buyer saw,
 * when it is at most QUOTE_LIFETIME_MS old and in this month, as Stripe's proration_date; without
 * one, `now`. Anything else is 400 on `quotedAt`, before anything is billed.
 */
export function billedFrom(quotedAt: Date | undefined, now: Date): Date {
  if (quotedAt === undefined) return now;
  const age = now.getTime() - quotedAt.getTime();
  if (age < 0 || age > QUOTE_LIFETIME_MS || monthOf(quotedAt) !== monthOf(now)) {
    throw invalid(
      "quotedAt",
      "the figure quoted is more than an hour old, from another month or in the future: read " +
        "it again for what this bills now",
    );
  }
  return quotedAt;
}

/** What a license bought at `at` is charged for its first (partial) month, to the second. */
export function firstCharge(
  monthlyMicros: number,
  at: Date,
): {
  month: string;
  micros: number;
  periodEnd: Date;
  secondsBilled: number;
  periodSeconds: number;
} {
  const { month, start, end } = periodOf(at);
  const periodSeconds = (end.getTime() - start.getTime()) / 1000;
  // Whole seconds left, rounded down: the started second is the buyer's.
  const secondsBilled = Math.floor((end.getTime() - at.getTime()) / 1000);
  return {
    month,
    micros: prorateMicros(monthlyMicros, secondsBilled, periodSeconds),
    periodEnd: end,
    secondsBilled,
    periodSeconds,
  };
}

/**
 * When the license is next billed, or null when it will not be: it is not active, is free, was
 * canceled, or its term ends at or before the next 1st.
 */
export function renewsAt(
  l: Pick<License, "state" | "monthlyFeeMicros" | "cancelRequestedAt" | "expiresAt">,
  now: Date,
): Date | null {
  if (l.state !== "active" || l.cancelRequestedAt !== null || l.monthlyFeeMicros === 0) return null;
  const next = periodOf(now).end;
  if (l.expiresAt !== null && l.expiresAt <= next.getTime()) return null;
  return next;
}
