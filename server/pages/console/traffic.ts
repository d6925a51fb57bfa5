/**
 * GET /publisher/traffic?days=7|30|90: calls per crawler or agent per day
 * (GET /api/publisher/analytics/traffic) and the most read and most earning articles
 * (GET /api/publisher/analytics/articles). A window the API refuses is named beside the default.
 */
import { Hono } from "hono";
import { TrafficPage } from "../../../ui/console/traffic.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { topArticlesSchema, trafficSchema } from "../../surfaces/manage/traffic_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { siteLinks } from "./site_links.ts";

const WINDOWS = [7, 30, 90] as const;
const DEFAULT_DAYS = "30";

/** The traffic page. */
export function trafficPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/traffic", async (c) => {
    const asked = c.req.query("days") ?? DEFAULT_DAYS;
    const first = await callApi(
      c,
      api,
      `/api/publisher/analytics/traffic?days=${encodeURIComponent(asked)}`,
      trafficSchema,
    );
    const refused = first.status === 400 ? first.problem : null;
    const days = refused ? DEFAULT_DAYS : asked;
    const traffic = refused
      ? must(await callApi(c, api, `/api/publisher/analytics/traffic?days=${days}`, trafficSchema))
      : must(first);
    const top = (by: string) =>
      callApi(c, api, `/api/publisher/analytics/articles?days=${days}&by=${by}`, topArticlesSchema)
        .then(must);
    const [byReads, byEarnings, link] = await Promise.all([
      top("reads"),
      top("earnings"),
      siteLinks(c, api),
    ]);
    const linked = (rows: typeof byReads.articles) =>
      rows.map((a) => (a.url ? { ...a, url: link(a.url) } : a));
    return c.html(
      renderPage(TrafficPage({
        who: c.get("who"),
        traffic,
        byReads: linked(byReads.articles),
        byEarnings: linked(byEarnings.articles),
        windows: WINDOWS,
        problem: refused ? `Window: ${refused.replace(/^days: /, "")}` : null,
      })),
      refused ? 400 : 200,
    );
  });
  return app;
}
