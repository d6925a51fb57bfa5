/**
 * /operator: the desk (ui/operator/desk.tsx): GET /api/operator/desk?month= with its months, and
 * /operator/desk.csv (GET /api/operator/desk/csv); who runs the node and the latest actions.
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { DeskPage } from "../../../ui/operator/desk.tsx";
import { deskSchema } from "../../surfaces/operator/payout_schemas.ts";
import {
  auditPageSchema,
  keyListSchema,
  operatorListSchema,
} from "../../surfaces/operator/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month after `month`, and the one before (YYYY-MM, UTC calendar). */
function shift(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number);
  const at = y * 12 + (m - 1) + by;
  return `${Math.floor(at / 12)}-${String((at % 12) + 1).padStart(2, "0")}`;
}

/** The desk page and its CSV. */
export function deskPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  const monthQuery = (raw: string | undefined) => raw && MONTH.test(raw) ? `month=${raw}&` : "";

  app.get("/desk.csv", async (c) => {
    const csv = await callApi(
      c,
      api,
      `/api/operator/desk/csv?${monthQuery(c.req.query("month"))}months=12`,
      null,
    );
    must(csv);
    return c.body(csv.text, 200, {
      "Content-Disposition": 'attachment; filename="folio-desk.csv"',
      "Content-Type": "text/csv; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });

  app.get("/", async (c) => {
    const [operators, keys, latest, desk, open] = await Promise.all([
      callApi(c, api, "/api/operator/operators", operatorListSchema),
      callApi(c, api, "/api/operator/keys", keyListSchema),
      callApi(c, api, "/api/operator/audit?limit=10", auditPageSchema),
      callApi(
        c,
        api,
        `/api/operator/desk?${monthQuery(c.req.query("month"))}months=6`,
        deskSchema,
      ),
      // The open month: the furthest the desk goes forward.
      callApi(c, api, "/api/operator/desk?months=1", deskSchema),
    ]);
    const d = must(desk);
    const last = shift(must(open).month.month, 1);
    return c.html(renderPage(DeskPage({
      who: c.get("who"),
      operators: must(operators).operators.length,
      activeKeys: must(keys).keys.filter((k) => !k.revokedAt).length,
      latest: must(latest).entries,
      desk: d,
      previous: shift(d.month.month, -1),
      next: d.month.month < last ? shift(d.month.month, 1) : null,
    })));
  });
  return app;
}
