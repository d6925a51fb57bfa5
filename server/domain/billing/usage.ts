/**
 * GET /api/marketplace/usage (docs/SPEC.md: `{usage, metered, meteredTotalCents}`; fields of entries and
 * the default window are ours): per publisher, `calls` are logged calls by any identity billed to
 * the buyer, `reads` the article reads among them, `paywalls` the paid reads of paywalled content
 * (ledger rows); `metered` is the per-use spend in the window. `daily` has every UTC day the window
 * touches, oldest first, zeros included, so the buyer portal can chart it (issue 12 part 5).
 */
import { identitiesOfBuyer } from "../../../store/buyer_clients.ts";
import { callsByDay, callsByPublisher } from "../../../store/buyer_usage.ts";
import { spendByDay, spendByPublisher } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import { invalid } from "../../platform/errors.ts";
import { microsToCents, microsToWholeCents, sumMicros } from "../../platform/money.ts";

const DAY_MS = 86_400_000;

/** The usage report's window, from the `days` query parameter (1-90, default 30). */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return 30;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 90) {
    throw invalid("days", "must be a whole number from 1 to 90");
  }
  return Number(raw);
}

/** The buyer's usage over the last `days` days. */
export async function buyerUsage(
  db: Client,
  buyerId: string,
  options: { days: number; now: Date },
) {
  const since = options.now.getTime() - options.days * DAY_MS;
  const identities = await identitiesOfBuyer(db, buyerId);
  const [calls, spend, callDays, spendDays] = await Promise.all([
    callsByPublisher(db, identities, { since }),
    spendByPublisher(db, buyerId, { since }),
    callsByDay(db, identities, { since }),
    spendByDay(db, buyerId, { since }),
  ]);
  const names = new Map<string, string>();
  for (const r of [...calls, ...spend]) names.set(r.publisherId, r.publisherName);
  const usage = [...names].map(([publisherId, publisherName]) => {
    const c = calls.find((r) => r.publisherId === publisherId);
    const s = spend.find((r) => r.publisherId === publisherId);
    return {
      publisherId,
      publisherName,
      calls: c?.calls ?? 0,
      reads: c?.reads ?? 0,
      paywalls: s?.reads ?? 0,
    };
  });
  const total = sumMicros(spend.map((s) => s.spendMicros));
  return {
    days: options.days,
    since: new Date(since).toISOString(),
    usage,
    metered: spend.map((s) => ({
      publisherId: s.publisherId,
      publisherName: s.publisherName,
      chargedReads: s.reads,
      spendUsdCents: microsToCents(s.spendMicros),
    })),
    meteredTotalCents: microsToWholeCents(total),
    daily: daysBetween(since, options.now.getTime()).map((day) => {
      const c = callDays.find((d) => d.day === day);
      const s = spendDays.find((d) => d.day === day);
      return {
        day,
        calls: c?.calls ?? 0,
        reads: c?.reads ?? 0,
        spendUsdCents: microsToCents(s?.spendMicros ?? 0),
      };
    }),
  };
}

/** Every UTC day ("YYYY-MM-DD") from the day of `from` to the day of `to`, both included. */
function daysBetween(from: number, to: number): string[] {
  const days: string[] = [];
  for (let t = from - (from % DAY_MS); t <= to; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
