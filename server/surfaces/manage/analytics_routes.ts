/**
 * GET /api/publisher/analytics?days=1..90: the publisher's activity per UTC day (calls by surface,
 * full-article reads, charged reads, earnings and the platform fee beside them) and its most
 * frequent reader intents, with totals for the window and for the current statement month.
 */
import { Hono } from "hono";
import { dailyCharges, dailySurfaceCalls, topIntents } from "../../../store/analytics.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { microsToWholeCents, sumMicros } from "../../platform/money.ts";
import { parseDays } from "../../platform/days.ts";

const DAY_MS = 86_400_000;
const TOP_INTENTS = 10;

/** The analytics route. */
export function analyticsRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  app.get("/analytics", async (c) => {
    const days = parseDays(c.req.query("days"));
    const now = deps.clock.now();
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const since = new Date(today - (days - 1) * DAY_MS);
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const from = since < monthStart ? since : monthStart;
    const db = deps.store.db;
    const id = c.get("publisher").id;
    await deps.callLog.flush(); // this process's buffered calls and intents count too
    const [calls, charges, intents] = await Promise.all([
      dailySurfaceCalls(db, id, from),
      dailyCharges(db, id, from),
      topIntents(db, id, since, { limit: TOP_INTENTS }),
    ]);
    const dayList = Array.from({ length: days }, (_, i) => since.getTime() + i * DAY_MS);
    const inWindow = (day: number) => day >= since.getTime();
    const inMonth = (day: number) => day >= monthStart.getTime();
    const sum = <T>(rows: T[], pick: (r: T) => number) => rows.reduce((t, r) => t + pick(r), 0);
    const totals = (keep: (day: number) => boolean) => {
      const cs = calls.filter((r) => keep(r.day));
      const ch = charges.filter((r) => keep(r.day));
      return {
        calls: sum(cs, (r) => r.calls),
        errors: sum(cs, (r) => r.errors),
        reads: sum(cs, (r) => r.reads),
        chargedReads: sum(ch, (r) => r.chargedReads),
        earningsUsdCents: microsToWholeCents(sumMicros(ch.map((r) => r.earnedMicros))),
        platformFeesUsdCents: microsToWholeCents(sumMicros(ch.map((r) => r.feeMicros))),
      };
    };
    return c.json({
      days,
      from: since.toISOString().slice(0, 10),
      to: new Date(today).toISOString().slice(0, 10),
      surfaces: [...new Set(calls.map((r) => r.surface))].sort(),
      daily: dayList.map((day) => {
        const cs = calls.filter((r) => r.day === day);
        const ch = charges.find((r) => r.day === day);
        return {
          day: new Date(day).toISOString().slice(0, 10),
          calls: Object.fromEntries(cs.map((r) => [r.surface, r.calls])),
          errors: sum(cs, (r) => r.errors),
          reads: sum(cs, (r) => r.reads),
          chargedReads: ch?.chargedReads ?? 0,
          earningsUsdCents: microsToWholeCents(ch?.earnedMicros ?? 0),
          platformFeesUsdCents: microsToWholeCents(ch?.feeMicros ?? 0),
        };
      }),
      totals: totals(inWindow),
      month: { month: monthStart.toISOString().slice(0, 7), ...totals(inMonth) },
      topIntents: intents.map((i) => ({
        prompt: i.prompt,
        count: i.count,
        lastAt: new Date(i.lastAt).toISOString(),
      })),
    });
  });
  return app;
}
