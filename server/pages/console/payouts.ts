/**
 * /publisher/payouts?month=: the month's payout statement (GET /api/publisher/payouts) with the
 * month's items (GET /api/publisher/items, cursor paging) and both CSVs as downloads. The months
 * offered are the current one and those the earnings API names.
 */
import { Hono } from "hono";
import { PayoutsPage } from "../../../ui/console/payouts.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { earningsSchema } from "../../surfaces/manage/openapi_schemas.ts";
import {
  payoutStatementSchema,
  publisherItemPageSchema,
} from "../../surfaces/manage/payout_schemas.ts";
import { payeeAnswerSchema, payoutHistorySchema } from "../../surfaces/manage/payee_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const PAGE_SIZE = 50;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The payouts page and its downloads. */
export function payoutsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();

  app.get("/payouts/:file{\\d{4}-\\d{2}\\.csv}", async (c) => {
    const month = c.req.param("file").slice(0, 7);
    const csv = await callApi(c, api, `/api/publisher/payouts/csv?month=${month}`, null);
    must(csv);
    return c.body(csv.text, 200, {
      "Content-Disposition": `attachment; filename="folio-payout-${month}.csv"`,
      "Content-Type": "text/csv; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });

  app.get("/payouts/:file{\\d{4}-\\d{2}-items\\.csv}", async (c) => {
    const month = c.req.param("file").slice(0, 7);
    const csv = await callApi(c, api, `/api/publisher/items/csv?statementMonth=${month}`, null);
    must(csv);
    return c.body(csv.text, 200, {
      "Content-Disposition": `attachment; filename="folio-items-${month}.csv"`,
      "Content-Type": "text/csv; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });

  app.get("/payouts", async (c) => {
    const asked = c.req.query("month");
    const statementOf = (month?: string) =>
      callApi(
        c,
        api,
        `/api/publisher/payouts${month ? `?month=${encodeURIComponent(month)}` : ""}`,
        payoutStatementSchema,
      );
    const first = await statementOf(asked);
    const refused = first.status === 400 ? first.problem : null;
    const statement = refused ? must(await statementOf()) : must(first);
    const ask = new URLSearchParams({ statementMonth: statement.month, limit: String(PAGE_SIZE) });
    const cursor = c.req.query("cursor");
    if (cursor && !refused) ask.set("cursor", cursor);
    const [items, earnings, history, payee] = await Promise.all([
      callApi(c, api, `/api/publisher/items?${ask}`, publisherItemPageSchema),
      callApi(c, api, "/api/publisher/earnings?months=12", earningsSchema).then(must),
      callApi(c, api, "/api/publisher/payouts/history", payoutHistorySchema).then(must),
      callApi(c, api, "/api/publisher/payee", payeeAnswerSchema).then(must),
    ]);
    const months = [...new Set([statement.month, ...earnings.months.map((m) => m.month)])]
      .filter((m) => MONTH.test(m)).sort().reverse();
    return c.html(
      renderPage(PayoutsPage({
        who: c.get("who"),
        statement,
        // A stale cursor is the only way this call fails: show the first page's problem.
        items: items.status === 200 ? must(items) : null,
        paged: Boolean(cursor),
        months,
        history: history.payouts,
        payee: payee.payee?.masked ?? null,
        problem: refused ?? (items.status === 400 ? items.problem : null),
      })),
      refused || items.status === 400 ? 400 : 200,
    );
  });
  return app;
}
