/**
 * /buyer/statements: the months (GET /api/marketplace/statements) with the invoices and balance
 * (GET /invoices), one month's statement (GET
 * /statement?month=), its printable invoice (GET /statement/invoice, ui/invoice.tsx) and its CSV
 * (GET /statement/csv: RFC 4180, formula-guarded), each passed on as the API answers it, and the
 * statement as a JSON download.
 */
import { type Context, Hono } from "hono";
import { StatementPage, StatementsPage } from "../../../ui/buyer/statements.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { statementMonthsSchema, statementSchema } from "../../surfaces/marketplace/schemas.ts";
import { receivablesSchema } from "../../surfaces/marketplace/invoice_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must, pageOf } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

/** Months per page of the list. */
const PAGE_SIZE = 12;

/** The statement pages and downloads. */
export function statementsPages(
  api: ApiFetch,
  options: { cardPayments: boolean },
): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const statementOf = (c: Context<BuyerEnv>, month: string) =>
    callApi(c, api, market(`/statement?month=${encodeURIComponent(month)}`), statementSchema)
      .then(must);

  app.get("/statements", async (c) => {
    const [{ months }, receivables] = await Promise.all([
      callApi(c, api, market("/statements"), statementMonthsSchema).then(must),
      callApi(c, api, market("/invoices"), receivablesSchema).then(must),
    ]);
    const shown = pageOf(months, c.req.query("page"), PAGE_SIZE);
    return c.html(renderPage(StatementsPage({
      who: c.get("who"),
      months: shown.items,
      page: shown.page,
      pages: shown.pages,
      billed: months.some((m) => m.totalUsdCents > 0),
      receivables,
      cardPayments: options.cardPayments,
    })));
  });

  // Downloads first: "2026-11.csv" is not a month, so the statement page's route would refuse it.
  app.get("/statements/:file{\\d{4}-\\d{2}\\.(?:csv|json)}", async (c) => {
    const [month, format] = c.req.param("file").split(".");
    const attachment = {
      "Content-Disposition": `attachment; filename="folio-statement-${month}.${format}"`,
    };
    if (format === "json") return c.json(await statementOf(c, month), 200, attachment);
    const csv = await callApi(c, api, market(`/statement/csv?month=${month}`), null);
    must(csv);
    return c.body(csv.text, 200, { ...attachment, "Content-Type": "text/csv; charset=utf-8" });
  });

  app.get("/statements/:month", async (c) => {
    const statement = await statementOf(c, c.req.param("month"));
    return c.html(renderPage(StatementPage({ who: c.get("who"), statement })));
  });

  // The API's own invoice page, with its own (stricter) CSP: it runs no script and has no forms.
  app.get("/statements/:month/invoice", async (c) => {
    const month = encodeURIComponent(c.req.param("month"));
    const answer = await callApi(c, api, market(`/statement/invoice?month=${month}`), null);
    must(answer);
    const csp = answer.headers.get("content-security-policy");
    if (csp) c.header("Content-Security-Policy", csp);
    return c.html(answer.text);
  });
  return app;
}
