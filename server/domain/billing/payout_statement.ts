/**
 * A publisher's monthly payout statement (issue 29 item 5): what buyers were billed for its content
 * on that month's statements, per-read and subscription earnings apart, the platform fees apart,
 * the net it is paid (its own prices: docs/SPEC.md "Agent payments"), and the payout's state. Built
 * from the same ledger rows as the items, so lines, items and totals agree to the micro-dollar.
 */
import { sumChargeItems } from "../../../store/charge_items.ts";
import type { ChargeKind } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import { listPayouts } from "../../../store/payouts.ts";
import { monthPayout } from "./earnings.ts";
import { monthOf } from "../../platform/clock.ts";
import { microsToWholeCents, subtractMicros, sumMicros } from "../../platform/money.ts";

const LINES: { kind: ChargeKind; description: string; perRead: boolean }[] = [
  { kind: "metered", description: "Metered reads (REST, MCP, A2A)", perRead: true },
  { kind: "landing", description: "Agent payments on your pages", perRead: true },
  { kind: "subscription", description: "License fees", perRead: false },
  { kind: "adjustment", description: "Credit notes (accepted disputes)", perRead: false },
];

/** Figures of a line or a total, in micro-dollars. */
export interface PayoutFigures {
  count: number;
  grossUsdMicros: number;
  platformFeesUsdMicros: number;
  netUsdMicros: number;
}

/** `month`'s payout statement of `publisherId`. */
export async function payoutStatement(
  db: Client,
  publisherId: string,
  month: string,
  options: { now: Date },
) {
  const lines = await Promise.all(LINES.map(async (l) => {
    const s = await sumChargeItems(db, { publisherId, statementMonth: month, kind: l.kind });
    return { ...l, ...figures(s.count, s.priceMicros, s.feeMicros) };
  }));
  const total = (keep: (l: typeof lines[number]) => boolean) => {
    const of = lines.filter(keep);
    return {
      count: of.reduce((t, l) => t + l.count, 0),
      grossUsdMicros: sumMicros(of.map((l) => l.grossUsdMicros)),
      platformFeesUsdMicros: sumMicros(of.map((l) => l.platformFeesUsdMicros)),
      netUsdMicros: sumMicros(of.map((l) => l.netUsdMicros)),
    };
  };
  const totals = total(() => true);
  const stored = (await listPayouts(db, publisherId, { limit: 240 })).find((p) =>
    p.month === month
  );
  const payout = monthPayout(month, stored, totals.netUsdMicros, options.now);
  const open = month >= monthOf(options.now);
  return {
    month,
    currency: "usd" as const,
    state: open ? "open" as const : "closed" as const,
    lines: lines.filter((l) => l.count > 0).map(({ perRead: _p, ...l }) => ({
      ...l,
      itemsUrl: `/api/publisher/items?${new URLSearchParams({
        statementMonth: month,
        kind: l.kind,
      })}`,
    })),
    perRead: total((l) => l.perRead),
    subscriptions: total((l) => l.kind === "subscription"),
    totals: { ...totals, netUsdCents: microsToWholeCents(totals.netUsdMicros) },
    payout: { state: payout.state, amountUsdMicros: payout.amountMicros },
  };
}

function figures(count: number, priceMicros: number, feeMicros: number): PayoutFigures {
  const gross = sumMicros([priceMicros, feeMicros]);
  return {
    count,
    grossUsdMicros: gross,
    platformFeesUsdMicros: feeMicros,
    netUsdMicros: subtractMicros(gross, feeMicros),
  };
}
