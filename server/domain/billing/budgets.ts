/**
 * Buyer budgets (issue 12): monthly limits a buyer sets on what it is billed, overall and per
 * publisher; the platform's 1,000 USD per publisher cap limits per-read spend alone. Reads check
 * them in the same conditional write as the cap (store/charges.ts), and fall back to held rights
 * the same way. License fees (a subscription's or an accepted offer's prorated first charge and
 * renewals) count too, and a purchase that would exceed a budget is refused (issue 29 item 2,
 * docs/decisions/billing.md "Offers").
 */
import {
  listBudgets,
  monthSpendByPublisher,
  setBudget,
  spendState,
} from "../../../store/budgets.ts";
import type { Client, Executor } from "../../../store/db.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { monthOf } from "../../platform/clock.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import {
  centsToMicros,
  METERED_CAP_MICROS,
  microsToCents,
  subtractMicros,
  sumMicros,
  usdPriceText,
} from "../../platform/money.ts";

/** The buyer's budgets and this month's spend against them and against the cap. */
export async function budgetReport(db: Client, buyerId: string, options: { now: Date }) {
  const month = monthOf(options.now);
  const [budgets, spend] = await Promise.all([
    listBudgets(db, buyerId),
    monthSpendByPublisher(db, buyerId, month),
  ]);
  const overall = budgets.find((b) => b.publisherId === null)?.monthlyMicros ?? null;
  const overallSpent = sumMicros(spend.map((s) => s.spentMicros));
  const overallReads = sumMicros(spend.map((s) => s.meteredMicros));
  const names = new Map(spend.map((s) => [s.publisherId, s.publisherName]));
  for (const b of budgets) {
    if (b.publisherId !== null && !names.has(b.publisherId)) {
      names.set(b.publisherId, (await getPublisher(db, b.publisherId))?.name ?? b.publisherId);
    }
  }
  const publishers = [...names].map(([publisherId, publisherName]) => {
    const row = spend.find((s) => s.publisherId === publisherId);
    const spent = row?.spentMicros ?? 0;
    const budget = budgets.find((b) => b.publisherId === publisherId)?.monthlyMicros ?? null;
    const room = Math.min(
      subtractMicros(METERED_CAP_MICROS, row?.meteredMicros ?? 0),
      budget === null ? Infinity : budget - spent,
      overall === null ? Infinity : overall - overallSpent,
    );
    return {
      publisherId,
      publisherName,
      monthlyUsdCents: budget === null ? null : microsToCents(budget),
      spentUsdCents: microsToCents(spent),
      readSpendUsdCents: microsToCents(row?.meteredMicros ?? 0),
      capUsdCents: microsToCents(METERED_CAP_MICROS),
      remainingUsdCents: microsToCents(Math.max(0, room)),
    };
  }).sort((a, b) => a.publisherName.localeCompare(b.publisherName));
  return {
    month,
    capUsdCents: microsToCents(METERED_CAP_MICROS),
    overall: {
      monthlyUsdCents: overall === null ? null : microsToCents(overall),
      spentUsdCents: microsToCents(overallSpent),
      readSpendUsdCents: microsToCents(overallReads),
      remainingUsdCents: overall === null
        ? null
        : microsToCents(Math.max(0, overall - overallSpent)),
    },
    publishers,
  };
}

/** Sets or removes one budget; a publisher budget must name a publisher that exists. */
export async function changeBudget(
  db: Client,
  buyerId: string,
  input: { publisherId?: string; monthlyUsdCents: number | null },
  options: { now: Date },
): Promise<void> {
  const publisherId = input.publisherId ?? null;
  if (publisherId !== null && !(await getPublisher(db, publisherId))) throw notFound("Publisher");
  await setBudget(db, buyerId, {
    publisherId,
    monthlyMicros: input.monthlyUsdCents === null ? null : centsToMicros(input.monthlyUsdCents),
    now: options.now,
  });
}

/**
 * Refuses (409 budget_exceeded) a license fee that would take the month's spend with the publisher,
 * or with every publisher, past the buyer's budget. Run inside the write transaction that bills the
 * fee, so no concurrent charge slips between the check and the charge.
 */
export async function assertFeeWithinBudgets(
  tx: Executor,
  buyerId: string,
  charge: { publisherId: string; month: string; feeMicros: number },
): Promise<void> {
  const s = await spendState(tx, buyerId, { publisherId: charge.publisherId, month: charge.month });
  const over = (budget: number | null, spent: number, scope: string) => {
    if (budget === null || sumMicros([spent, charge.feeMicros]) <= budget) return;
    throw new AppError(
      409,
      "budget_exceeded",
      `This charge of ${usdPriceText(charge.feeMicros)} would exceed your ${scope} for ` +
        `${charge.month} (${usdPriceText(budget)}, of which ${
          usdPriceText(spent)
        } is spent): raise the ` +
        "budget with PUT /api/marketplace/budgets or wait for next month. Nothing was charged.",
    );
  };
  over(s.publisherBudgetMicros, s.budgetSpentMicros, "budget for this publisher");
  over(s.overallBudgetMicros, s.overallSpentMicros, "overall budget");
}
