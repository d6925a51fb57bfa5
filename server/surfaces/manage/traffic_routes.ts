/**
 * GET /api/publisher/analytics/traffic and /analytics/articles (issue 34; what TollBit's console
 * and Cloudflare AI Crawl Control show): calls per caller per UTC day, and the articles most read
 * or most earning, over the last 1 to 90 days.
 */
import { Hono } from "hono";
import { dailyAgentCalls, topArticles } from "../../../store/analytics.ts";
import type { AppDeps } from "../../deps.ts";
import { microsToCents } from "../../platform/money.ts";
import { parseInput } from "../../platform/validate.ts";
import { describeAgents } from "./agents.ts";
import type { ManageEnv } from "./auth.ts";
import { topArticlesQuerySchema, trafficQuerySchema } from "./traffic_schemas.ts";

const DAY_MS = 86_400_000;

/** The window of the last `days` UTC days, today included. */
function windowOf(now: Date, days: number) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const since = today - (days - 1) * DAY_MS;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    since: new Date(since),
    days: Array.from({ length: days }, (_, i) => since + i * DAY_MS),
    head: { days, from: dayOf(since), to: dayOf(today) },
    dayOf,
  };
}

/** The traffic routes. */
export function trafficRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

  app.get("/analytics/traffic", async (c) => {
    const q = parseInput(trafficQuerySchema, params(c.req.url));
    const w = windowOf(deps.clock.now(), q.days);
    await deps.callLog.flush();
    const rows = await dailyAgentCalls(db, c.get("publisher").id, w.since);
    const totals = new Map<string, number>();
    for (const r of rows) totals.set(r.agent, (totals.get(r.agent) ?? 0) + r.calls);
    const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const top = ranked.slice(0, q.top).map(([key]) => key);
    const index = new Map(w.days.map((d, i) => [d, i]));
    const daily = (keep: (agent: string) => boolean) => {
      const out = w.days.map(() => 0);
      for (const r of rows) if (keep(r.agent)) out[index.get(r.day) ?? 0] += r.calls;
      return out;
    };
    const agentOf = await describeAgents(db, top);
    const others = daily((a) => !top.includes(a));
    return c.json({
      ...w.head,
      dayLabels: w.days.map(w.dayOf),
      series: top.map((key) => ({
        agent: agentOf(key),
        total: totals.get(key) ?? 0,
        daily: daily((a) => a === key),
      })),
      others: {
        callers: ranked.length - top.length,
        total: others.reduce((t, n) => t + n, 0),
        daily: others,
      },
      total: rows.reduce((t, r) => t + r.calls, 0),
    });
  });

  app.get("/analytics/articles", async (c) => {
    const q = parseInput(topArticlesQuerySchema, params(c.req.url));
    const w = windowOf(deps.clock.now(), q.days);
    await deps.callLog.flush();
    const rows = await topArticles(db, c.get("publisher").id, w.since, {
      by: q.by,
      limit: q.limit,
    });
    return c.json({
      ...w.head,
      by: q.by,
      articles: rows.map((r) => ({
        id: r.articleId,
        title: r.title,
        url: r.url,
        reads: r.reads,
        chargedReads: r.chargedReads,
        earningsUsdCents: microsToCents(r.earnedMicros),
      })),
    });
  });
  return app;
}
