/**
 * Billing periods and proration (docs/decisions/billing.md "Proration"): a license's period is the
 * calendar month in UTC, renewed on the 1st. A license bought mid-month pays, as Stripe prorates,
 * for the seconds left in the month; a cancellation takes effect at the period's end (Stripe's
 * `cancel_at_period_end`), so the buyer keeps what it paid for and nothing is credited or charged
 * again.
 */
import type { License } from "../../../store/licenses.ts";
import { monthOf } from "../../platform/clock.ts";
import { prorateMicros } from "../../platform/money.ts";
import { monthStart, nextMonth } from "./months.ts";

/** The billing period containing `at`: its month, first instant and end (next month's start). */
export function periodOf(at: Date): { month: string; start: Date; end: Date } {
  const month = monthOf(at);
  return { month, start: monthStart(month), end: monthStart(nextMonth(month)) };
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
