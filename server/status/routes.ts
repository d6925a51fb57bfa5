/** GET /api/status (docs/SPEC.md "Status endpoints"): the published figures, CORS-open. */
import { Hono } from "hono";
import { openCors } from "../cors.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { invalid } from "../errors.ts";
import { statusReport } from "./report.ts";

/** The window when `days` is not given. */
export const DEFAULT_DAYS = 30;

/** `days`: a whole number from 1 to 90; absent means DEFAULT_DAYS. */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_DAYS;
  const days = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= 90)) {
    throw invalid("days", `must be a whole number from 1 to 90, got "${raw.slice(0, 20)}"`);
  }
  return days;
}

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
