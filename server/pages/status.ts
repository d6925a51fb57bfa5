/** GET /status: the human status page (docs/SPEC.md "Status endpoints"), from the same report. */
import { Hono } from "hono";
import { renderPage } from "../../ui/layout.tsx";
import { StatusPage, StatusProblemPage } from "../../ui/status.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError } from "../platform/errors.ts";
import { CSP, pageHeaders } from "../platform/security_headers.ts";
import { dailyFigures, probeHistory, statusReport } from "../domain/status/report.ts";
import { parseDays } from "../platform/days.ts";

/** The windows the page offers. */
export const WINDOWS = [1, 7, 30, 90] as const;

/** The status page, mounted at /status. */
export function statusPageRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", pageHeaders(deps.config, CSP.document));
  app.get("/", async (c) => {
    let days: number;
    try {
      days = parseDays(c.req.query("days"));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return c.html(renderPage(StatusProblemPage({ message: err.message, windows: WINDOWS })), 400);
    }
    const db = deps.store.db;
    const now = deps.clock.now();
    const [report, daily, probes] = await Promise.all([
      statusReport(db, { now, days }),
      dailyFigures(db, { now, days }),
      probeHistory(db, { now, days }),
    ]);
    c.header("Cache-Control", "public, max-age=30");
    return c.html(renderPage(StatusPage({ days, windows: WINDOWS, report, daily, probes })));
  });
  return app;
}
