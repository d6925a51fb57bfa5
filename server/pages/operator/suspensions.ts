/**
 * /operator/suspensions: the operator's suspensions (issue 38). This page is the area's placeholder; the area's
 * own work replaces it in place (docs/decisions/operator.md "How to add an operator route and page").
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { AreaPage } from "../../../ui/operator/shell.tsx";
import type { ApiFetch } from "../kit/api.ts";
import type { OperatorPagesEnv } from "./site.ts";

/** The suspensions pages. */
export function suspensionsPages(_api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  app.get("/suspensions", (c) =>
    c.html(renderPage(AreaPage({
      who: c.get("who"),
      section: "suspensions",
      title: "Suspensions",
      intro:
        "Buyers suspended for an overdue invoice or by hand, with the reason, and the way to lift a suspension.",
      empty: "No buyer is suspended.",
    }))));
  return app;
}
