/**
 * The per-publisher MCP servers (docs/SPEC.md "MCP server"), mounted at /api/mcp (publisher by id)
 * and at /mcp on a publisher's custom domain (publisher by Host), the same server at both:
 *   POST|DELETE /api/mcp/<publisherId> or /mcp   streamable HTTP (GET answers 405: no SSE stream)
 * and their discovery documents: the publisher card at /api/publishers/<publisherId>/card and
 * /.well-known/mcp.json?slug=<slug> (server/well_known.ts).
 */
import { type Context, Hono } from "hono";
import { findPublisherBySlug, getPublisher, type Publisher } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import {
  bodyLimited,
  callLogged,
  gate,
  publisherFrom,
  Refused,
  RPC_BODY_LIMIT,
} from "../../platform/envelope.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { metadataUrlOf, protectedResourceMetadataUrl } from "../../platform/resource_metadata.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { loadOnce } from "../../platform/lazy.ts";
import { errorResponse, McpHttpError, refusalError, scopeCheck, transportChecks } from "./guard.ts";

// The MCP SDK (with ajv and express in its tree) and the tools' schemas load on the first MCP
// request or card, not at start (docs/decisions/operations.md, "What the start fetches");
// scripts/compile.ts includes both modules.
const ENDPOINT = ["./endpoint", "ts"].join(".");
const CARD = ["./card", "ts"].join(".");
const endpoint = loadOnce((): Promise<typeof import("./endpoint.ts")> => import(ENDPOINT));
const card = loadOnce((): Promise<typeof import("./card.ts")> => import(CARD));

/**
 * The MCP endpoint: the envelope and MCP's own checks, in the order a client sees them. `via` says
 * where the publisher comes from, and so which resource URI a 401 points the client's OAuth at.
 */
export function mcpRoutes(deps: AppDeps, via: "host" | "param"): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const base = deps.config.baseUrl;
  const metadataOf = <E extends AppEnv>(c: Context<E>): string => {
    const p: Publisher | null = c.get("publisher");
    const host = via === "host" && p ? publisherUrls(deps.config, p).mcpHost : null;
    if (host) return metadataUrlOf(host);
    return protectedResourceMetadataUrl(base, p?.id ?? c.req.param("publisherId") ?? "");
  };
  app.onError((err, c) => {
    const e = err instanceof Refused ? refusalError(err.refusal, metadataOf(c)) : err;
    if (e instanceof McpHttpError) return errorResponse(e);
    throw err;
  });
  app.all(
    via === "host" ? "/" : "/:publisherId",
    callLogged(deps, "mcp"),
    async (c, next) => {
      // A GET (a client probing for an SSE stream) is no protocol call: it is not logged.
      if (c.req.method !== "GET") {
        c.set("call", { tools: [`_method:${c.req.method}`], okAs: "trace" });
      }
      await next();
    },
    publisherFrom(deps, via),
    transportChecks(base),
    // Anonymous callers are named by their session (server/surfaces/mcp/session.ts) once it is known.
    gate(deps, "mcp", () => null),
    scopeCheck(metadataOf),
    bodyLimited(RPC_BODY_LIMIT),
    async (c) => (await endpoint()).handleMcp(c, deps, metadataOf(c)),
  );
  return app;
}

/** GET /api/publishers/<publisherId>/card: the publisher card, public and CORS-open. */
export function cardRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/:publisherId/card", async (c) => {
    const publisher = await getPublisher(deps.store.db, c.req.param("publisherId"));
    if (!publisher) throw notFound("Publisher");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json((await card()).publisherCard(deps.config, publisher));
  });
  return app;
}

/** GET /.well-known/mcp.json?slug=<slug>: the same card, found by slug. */
export function mcpJsonRoute(deps: AppDeps) {
  return async (c: Context<AppEnv>) => {
    const slug = c.req.query("slug");
    if (!slug) throw invalid("slug", "is required: /.well-known/mcp.json?slug=<publisher slug>");
    if (slug.length > 64) throw invalid("slug", "must be at most 64 characters");
    const publisher = await findPublisherBySlug(deps.store.db, slug);
    if (!publisher) throw new AppError(404, "not_found", `No publisher has the slug "${slug}"`);
    c.header("Access-Control-Allow-Origin", "*");
    return c.json((await card()).publisherCard(deps.config, publisher));
  };
}
