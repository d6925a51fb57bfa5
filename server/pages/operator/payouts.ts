/**
 * /operator/payouts: the operator's payouts (issue 38). This page is the area's placeholder; the area's
 * own work replaces it in place (docs/decisions/operator.md "How to add an operator route and page").
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { AreaPage } from "../../../ui/operator/shell.tsx";
import type { ApiFetch } from "../kit/api.ts";
import type { OperatorPagesEnv } from "./site.ts";

/** The payouts pages. */
export function payoutsPages(_api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  app.get("/payouts", (c) =>
    c.html(renderPage(AreaPage({
      who: c.get("who"),
      section: "payouts",
      title: "Payouts",
      intro:
        "What each publisher is owed after a month closes, the holds and their reasons, the batches approved and the payouts paid.",
      empty: "No payouts are due yet: they appear after a month closes.",
    }))));
  return app;
}
