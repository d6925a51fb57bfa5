/**
 * /operator/invoices: the operator's invoices (issue 38). This page is the area's placeholder; the area's
 * own work replaces it in place (docs/decisions/operator.md "How to add an operator route and page").
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { AreaPage } from "../../../ui/operator/shell.tsx";
import type { ApiFetch } from "../kit/api.ts";
import type { OperatorPagesEnv } from "./site.ts";

/** The invoices pages. */
export function invoicesPages(_api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  app.get("/invoices", (c) =>
    c.html(renderPage(AreaPage({
      who: c.get("who"),
      section: "invoices",
      title: "Invoices",
      intro:
        "Every closed month's invoices, their state (open, paid, partly paid, overdue, void, uncollectible) and the payments recorded against them.",
      empty: "No invoices yet: each buyer's invoice appears here when its month closes.",
    }))));
  return app;
}
