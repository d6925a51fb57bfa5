/**
 * GET /publisher/earnings?days=7|30|90: earnings per month (GET /api/publisher/earnings?months=12)
 * and per day over the window (GET /api/publisher/analytics?days=N). A window the API refuses is
 * shown as its problem beside the default window, not as an error page.
 */
import { Hono } from "hono";
import { EarningsPage } from "../../../ui/console/earnings.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { PLATFORM_FEE_TEXT } from "../../platform/money.ts";
import { analyticsSchema, earningsSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const WINDOWS = [7, 30, 90] as const;
const DEFAULT_DAYS = 30;

/** The earnings page. */
export function earningsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/earnings", async (c) => {
    const asked = c.req.query("days") ?? String(DEFAULT_DAYS);
    const analyticsOf = (days: string) =>
      callApi(c, api, `/api/publisher/analytics?days=${encodeURIComponent(days)}`, analyticsSchema);
    const [earnings, first] = await Promise.all([
      callApi(c, api, "/api/publisher/earnings?months=12", earningsSchema).then(must),
      analyticsOf(asked),
    ]);
    // A window the API refuses (400) is named beside the default one; anything else is an error.
    const refused = first.status === 400 ? first.problem : null;
    const analytics = refused ? must(await analyticsOf(String(DEFAULT_DAYS))) : must(first);
    return c.html(
      renderPage(EarningsPage({
        who: c.get("who"),
        months: earnings.months,
        daily: analytics.daily,
        window: analytics.totals,
        days: analytics.days,
        windows: WINDOWS,
        month: analytics.month.month,
        feeText: PLATFORM_FEE_TEXT,
        problem: refused,
      })),
      refused ? 400 : 200,
    );
  });
  return app;
}
