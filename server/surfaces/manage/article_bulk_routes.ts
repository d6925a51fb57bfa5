/**
 * POST /api/publisher/articles/bulk, GET and PUT /api/publisher/article-defaults (issue 34):
 * one policy and price change for many articles (a dry run counts it first), and the terms new
 * articles get at ingestion.
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { json } from "./body.ts";
import { bulkChangeArticles, defaultsOf, setDefaults } from "./article_bulk.ts";
import {
  articleBulkSchema,
  articleDefaultsSchema,
  BULK_BODY_LIMIT,
} from "./article_bulk_schemas.ts";

/** The bulk and defaults routes. */
export function articleBulkRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  app.post("/articles/bulk", json(articleBulkSchema, { limit: BULK_BODY_LIMIT }), async (c) => {
    return c.json(await bulkChangeArticles(deps, c.get("publisher"), c.req.valid("json")));
  });
  app.get("/article-defaults", async (c) => c.json(await defaultsOf(deps, c.get("publisher").id)));
  app.put("/article-defaults", json(articleDefaultsSchema), async (c) => {
    return c.json(await setDefaults(deps, c.get("publisher").id, c.req.valid("json")));
  });
  return app;
}
