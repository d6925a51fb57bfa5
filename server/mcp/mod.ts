/**
 * The per-publisher MCP servers (docs/SPEC.md "MCP server"):
 *   POST|DELETE /api/mcp/<publisherId>        streamable HTTP (GET answers 405: no SSE stream)
 *   GET /api/publishers/<publisherId>/card    the publisher card
 *   GET /.well-known/mcp.json?slug=<slug>     the same card, found by slug
 */
import { Hono } from "hono";
import { findPublisherBySlug, getPublisher } from "../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError, invalid, notFound } from "../errors.ts";
import { publisherCard } from "./card.ts";
import { handleMcp } from "./endpoint.ts";

/** MCP routes: POST/GET/DELETE /api/mcp/:publisherId and discovery. */
export function mcpRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.all("/api/mcp/:publisherId", (c) => handleMcp(c, deps));

  // Discovery documents are public and read by agents from anywhere.
  app.get("/api/publishers/:publisherId/card", async (c) => {
    const publisher = await getPublisher(deps.store.db, c.req.param("publisherId"));
    if (!publisher) throw notFound("Publisher");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(publisherCard(deps.config, publisher));
  });
  app.get("/.well-known/mcp.json", async (c) => {
    const slug = c.req.query("slug");
    if (!slug) throw invalid("slug", "is required: /.well-known/mcp.json?slug=<publisher slug>");
    if (slug.length > 64) throw invalid("slug", "must be at most 64 characters");
    const publisher = await findPublisherBySlug(deps.store.db, slug);
    if (!publisher) throw new AppError(404, "not_found", `No publisher has the slug "${slug}"`);
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(publisherCard(deps.config, publisher));
  });
  return app;
}
