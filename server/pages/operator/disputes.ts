/**
 * /operator/disputes: the operator's disputes (issue 38). This page is the area's placeholder; the area's
 * own work replaces it in place (docs/decisions/operator.md "How to add an operator route and page").
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { AreaPage } from "../../../ui/operator/shell.tsx";
import type { ApiFetch } from "../kit/api.ts";
import type { OperatorPagesEnv } from "./site.ts";

/** The disputes pages. */
export function disputesPages(_api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  app.get("/disputes", (c) =>
    c.html(renderPage(AreaPage({
      who: c.get("who"),
      section: "disputes",
      title: "Disputes",
      intro:
        "Disputes buyers raise about charged items, the publisher's decision, and the ones escalated to you.",
      empty: "No disputes: a buyer's dispute shows here once it is raised.",
    }))));
  return app;
}
