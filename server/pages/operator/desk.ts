/** /operator: the desk, an overview of the node (ui/operator/desk.tsx). */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { DeskPage } from "../../../ui/operator/desk.tsx";
import {
  auditPageSchema,
  keyListSchema,
  operatorListSchema,
} from "../../surfaces/operator/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

/** The desk page. */
export function deskPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  app.get("/", async (c) => {
    const [operators, keys, latest] = await Promise.all([
      callApi(c, api, "/api/operator/operators", operatorListSchema),
      callApi(c, api, "/api/operator/keys", keyListSchema),
      callApi(c, api, "/api/operator/audit?limit=10", auditPageSchema),
    ]);
    return c.html(renderPage(DeskPage({
      who: c.get("who"),
      operators: must(operators).operators.length,
      activeKeys: must(keys).keys.filter((k) => !k.revokedAt).length,
      latest: must(latest).entries,
    })));
  });
  return app;
}
