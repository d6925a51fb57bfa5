/**
 * The operator's desk (issue 38 part 6; docs/decisions/billing.md "The operator's desk"): per
 * statement month, what buyers were billed, what was collected (cash: card payments at checkout
 * and payments on invoices; statements closed before invoices recorded payments count as
 * collected, as the payouts do), what is outstanding and overdue, what was credited (credit
 * notes), the platform's fees (the 4.7% on the landing path: Folio's only revenue), and the
 * payouts earned, due now, approved and paid. Every figure is a sum of rows, in micro-dollars.
 */
import type { Executor } from "../../../store/db.ts";
import { deskRow } from "../../../store/desk.ts";
import { monthOf } from "../../platform/clock.ts";
import { sumMicros } from "../../platform/money.ts";
import { previousMonth } from "./months.ts";
import { payoutsDue } from "./payouts_due.ts";

/** One month on the desk. */
export async function deskMonth(db: Executor, month: string, now: Date) {
  const [r, due] = await Promise.all([
    deskRow(db, month, now.getTime()),
    payoutsDue(db, month),
  ]);
  const ofMonth = due.filter((d) => d.payout.month === month);
  const free = ofMonth.filter((d) => d.holds.length === 0);
  return {
    month,
    state: month >= monthOf(now) ? "open" as const : "closed" as const,
    billedUsdMicros: r.billedMicros,
    publishersPricesUsdMicros: r.pricesMicros,
    platformFeesUsdMicros: r.platformFeesMicros,
    collectedUsdMicros: sumMicros([r.prepaidMicros, r.paidOnInvoicesMicros, r.untrackedMicros]),
    collectedByCardUsdMicros: r.prepaidMicros,
    collectedOnInvoicesUsdMicros: r.paidOnInvoicesMicros,
    collectedUntrackedUsdMicros: r.untrackedMicros,
    creditAppliedUsdMicros: r.creditAppliedMicros,
    outstandingUsdMicros: r.outstandingMicros,
    overdueUsdMicros: r.overdueMicros,
    voidUsdMicros: r.voidMicros,
    uncollectibleUsdMicros: r.uncollectibleMicros,
    creditedUsdMicros: r.creditedMicros,
    invoices: r.invoices,
    creditNotes: r.creditNotes,
    payouts: r.payouts,
    payoutsEarnedUsdMicros: r.payoutsEarnedMicros,
    payoutsDueNowUsdMicros: sumMicros(free.map((d) => d.dueMicros)),
    payoutsHeld: ofMonth.length - free.length,
    payoutsApprovedUsdMicros: r.payoutsBatchedMicros,
    payoutsPaidUsdMicros: r.payoutsPaidMicros,
  };
}

/** The desk's figures for `month`. */
export type DeskMonth = Awaited<ReturnType<typeof deskMonth>>;

/** `count` months ending with `month`, oldest first (the charts and the CSV). */
export async function deskMonths(
  db: Executor,
  month: string,
  count: number,
  now: Date,
): Promise<DeskMonth[]> {
  const months = [month];
  while (months.length < count) months.unshift(previousMonth(months[0]));
  const out: DeskMonth[] = [];
  for (const m of months) out.push(await deskMonth(db, m, now));
  return out;
}

/** The CSV columns of the desk (one row per month). */
export const DESK_COLUMNS = [
  "month",
  "state",
  "billedUsdMicros",
  "publishersPricesUsdMicros",
  "platformFeesUsdMicros",
  "collectedUsdMicros",
  "creditAppliedUsdMicros",
  "outstandingUsdMicros",
  "overdueUsdMicros",
  "creditedUsdMicros",
  "payoutsEarnedUsdMicros",
  "payoutsDueNowUsdMicros",
  "payoutsApprovedUsdMicros",
  "payoutsPaidUsdMicros",
] as const;
