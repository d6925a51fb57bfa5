/**
 * GET /publisher/intents: the last 100 reader intents (GET /api/publisher/intents) and the most
 * asked questions of the last 30 days (GET /api/publisher/analytics `topIntents`).
 */
import { Hono } from "hono";
import { IntentsPage } from "../../../ui/console/intents.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { analyticsSchema, intentListSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const TOP_DAYS = 30;

/** The intents page. */
export function intentsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/intents", async (c) => {
    const [recent, analytics] = await Promise.all([
      callApi(c, api, "/api/publisher/intents", intentListSchema).then(must),
      callApi(c, api, `/api/publisher/analytics?days=${TOP_DAYS}`, analyticsSchema).then(must),
    ]);
    return c.html(renderPage(IntentsPage({
      who: c.get("who"),
      intents: recent.intents,
      top: analytics.topIntents,
      days: TOP_DAYS,
    })));
  });
  return app;
}
