/**
 * Buyer budgets (issue 12): monthly limits a buyer sets on its own per-read spend, overall and per
 * publisher, below the platform's 1,000 USD per publisher cap. Reads check them in the same
 * conditional write as the cap (store/charges.ts), and fall back to held rights the same way.
 * Subscription fees are not per-read spend and do not count.
 */
import { listBudgets, monthSpendByPublisher, setBudget } from "../../../store/budgets.ts";
import type { Client } from "../../../store/db.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { monthOf } from "../../platform/clock.ts";
import { notFound } from "../../platform/errors.ts";
import {
  centsToMicros,
  METERED_CAP_MICROS,
  microsToCents,
  sumMicros,
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
  const names = new Map(spend.map((s) => [s.publisherId, s.publisherName]));
  for (const b of budgets) {
    if (b.publisherId !== null && !names.has(b.publisherId)) {
      names.set(b.publisherId, (await getPublisher(db, b.publisherId))?.name ?? b.publisherId);
    }
  }
  const publishers = [...names].map(([publisherId, publisherName]) => {
    const spent = spend.find((s) => s.publisherId === publisherId)?.spentMicros ?? 0;
    const budget = budgets.find((b) => b.publisherId === publisherId)?.monthlyMicros ?? null;
    const room = Math.min(
      METERED_CAP_MICROS - spent,
      budget === null ? Infinity : budget - spent,
      overall === null ? Infinity : overall - overallSpent,
    );
    return {
      publisherId,
      publisherName,
      monthlyUsdCents: budget === null ? null : microsToCents(budget),
      spentUsdCents: microsToCents(spent),
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
