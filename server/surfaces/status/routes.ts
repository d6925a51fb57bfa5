/** GET /api/status (docs/SPEC.md "Status endpoints"): the published figures, CORS-open. */
import { Hono } from "hono";
import { openCors } from "../../platform/cors.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { parseDays } from "../../platform/days.ts";
import { statusReport } from "../../domain/status/report.ts";

/** The status API, mounted at /api/status. */
export function statusApiRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Public figures: any origin may read them, and no credential is involved.
  app.use("*", openCors({ allowMethods: ["GET", "OPTIONS"], maxAge: 86400 }));
  app.get("/", async (c) => {
    const days = parseDays(c.req.query("days"));
    c.header("Cache-Control", "public, max-age=30");
    return c.json(await statusReport(deps.store.db, { now: deps.clock.now(), days }));
  });
  return app;
}
