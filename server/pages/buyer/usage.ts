/**
 * /buyer/usage?days=7|30|90: GET /api/marketplace/usage over the window (with its daily series). A
 * window the API refuses is shown as its problem beside the default window, as the console's
 * earnings page does.
 */
import { Hono } from "hono";
import { UsagePage } from "../../../ui/buyer/usage.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { usageSchema } from "../../surfaces/marketplace/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

const WINDOWS = [7, 30, 90] as const;
const DEFAULT_DAYS = "30";

/** The usage page. */
export function usagePages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  app.get("/usage", async (c) => {
    const usageOf = (days: string) =>
      callApi(c, api, market(`/usage?days=${encodeURIComponent(days)}`), usageSchema);
    const first = await usageOf(c.req.query("days") ?? DEFAULT_DAYS);
    const refused = first.status === 400 ? first.problem : null;
    const usage = refused ? must(await usageOf(DEFAULT_DAYS)) : must(first);
    return c.html(
      renderPage(UsagePage({ who: c.get("who"), usage, windows: WINDOWS, problem: refused })),
      refused ? 400 : 200,
    );
  });
  return app;
}
