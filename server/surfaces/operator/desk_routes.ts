/**
 * The operator's desk (issue 38 part 6): GET /api/operator/desk?month= (one month's money and the
 * months before it) and /desk/csv (one row per month). The invoices, disputes and suspensions
 * lists are their areas' own; the desk links to them.
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { DESK_COLUMNS, deskMonths } from "../../domain/billing/desk.ts";
import { previousMonth } from "../../domain/billing/months.ts";
import { monthOf } from "../../platform/clock.ts";
import { toCsv } from "../../platform/csv.ts";
import { parseInput } from "../../platform/validate.ts";
import type { OperatorEnv } from "./auth.ts";
import { deskQuerySchema } from "./payout_schemas.ts";

/** The desk routes. */
export function deskRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const db = deps.store.db;
  const query = (url: string) => {
    const q = parseInput(deskQuerySchema, Object.fromEntries(new URL(url).searchParams));
    return { month: q.month ?? previousMonth(monthOf(deps.clock.now())), months: q.months };
  };

  app.get("/desk", async (c) => {
    const q = query(c.req.url);
    const history = await deskMonths(db, q.month, q.months, deps.clock.now());
    const m = encodeURIComponent(q.month);
    return c.json({
      month: history.at(-1)!,
      history,
      links: {
        invoices: `/operator/invoices?month=${m}`,
        disputes: "/operator/disputes",
        suspensions: "/operator/suspensions",
        payouts: `/operator/payouts?month=${m}`,
      },
    });
  });

  app.get("/desk/csv", async (c) => {
    const q = query(c.req.url);
    const history = await deskMonths(db, q.month, q.months, deps.clock.now());
    const rows: (string | number)[][] = [[...DESK_COLUMNS]];
    for (const h of history) rows.push(DESK_COLUMNS.map((k) => h[k]));
    c.header("Content-Disposition", `attachment; filename="folio-desk-${q.month}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(toCsv(rows), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });
  return app;
}
