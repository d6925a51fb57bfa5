/**
 * `budget.threshold` (docs/decisions/webhooks.md): a buyer's budget reaching 80% and 100% of its
 * monthly limit, each once per budget and month. A sweep, not a step of the charge: reads stay
 * as fast as before, and a threshold crossed by several concurrent reads is seen once. Every
 * buyer with a budget is looked at, since the event is emailed whether or not an endpoint listens
 * (docs/decisions/email.md); the event's dedupe key makes it once-only whichever node sweeps.
 */
import type { Client } from "../../../store/db.ts";
import { buyersWithBudgets } from "../../../store/budgets.ts";
import { centsToMicros, microsToWholeCents, reachedPercent } from "../../platform/money.ts";
import { budgetReport } from "../billing/budgets.ts";
import { notify } from "./events.ts";

/** The shares of a budget that notify. */
export const THRESHOLDS = [80, 100] as const;

/** Notifies every threshold reached this month not notified yet; answers how many it wrote. */
export async function sweepBudgets(db: Client, options: { now: Date }): Promise<number> {
  let written = 0;
  for (const buyerId of await buyersWithBudgets(db)) {
    written += await checkBuyerBudgets(db, buyerId, options);
  }
  return written;
}

/** One buyer's thresholds (the sweep's step; tests call it directly). */
export async function checkBuyerBudgets(
  db: Client,
  buyerId: string,
  options: { now: Date },
): Promise<number> {
  const report = await budgetReport(db, buyerId, options);
  const budgets = [
    {
      scope: "overall",
      publisherId: null as string | null,
      publisherName: null as string | null,
      monthlyUsdCents: report.overall.monthlyUsdCents,
      spentUsdCents: report.overall.spentUsdCents,
    },
    ...report.publishers.map((p) => ({ scope: p.publisherId, ...p })),
  ];
  let written = 0;
  for (const b of budgets) {
    if (b.monthlyUsdCents === null) continue;
    for (const percent of THRESHOLDS) {
      if (!reachedPercent(b.spentUsdCents, b.monthlyUsdCents, percent)) continue;
      const id = await notify(db, { kind: "buyer", id: buyerId }, "budget.threshold", {
        month: report.month,
        threshold: percent,
        budget: b.publisherId === null ? "overall" : "publisher",
        publisherId: b.publisherId,
        publisherName: b.publisherName,
        monthlyUsdCents: b.monthlyUsdCents,
        // Whole cents, as every amount in an event; the exact spend to the micro-dollar beside it.
        spentUsdCents: microsToWholeCents(centsToMicros(b.spentUsdCents)),
        spentMicros: centsToMicros(b.spentUsdCents),
      }, { now: options.now, dedupe: `budget:${b.scope}:${report.month}:${percent}` });
      if (id) written++;
    }
  }
  return written;
}
