/**
 * The HTTP application, built from injected dependencies with no I/O at import time. Every
 * surface is a sub-app mounted by its path prefix; the root adds only the request id and the
 * one error model. Agent surfaces run the request envelope (server/envelope.ts) themselves.
 */
import { Hono } from "hono";
import { a2aRoutes } from "./a2a/routes.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { errorBody } from "./errors.ts";
import { buyerRoutes } from "./buyer/routes.ts";
import { consoleRoutes } from "./console/routes.ts";
import { homeRoutes } from "./home.ts";
import { accountRoutes } from "./manage/account_routes.ts";
import { docsRoutes } from "./openapi/docs_routes.ts";
import { openApiRoutes } from "./openapi/document.ts";
import { manageRoutes } from "./manage/routes.ts";
import { MARKETPLACE, marketplaceRoutes } from "./marketplace/routes.ts";
import { cardRoutes, mcpRoutes } from "./mcp/routes.ts";
import { publisherHostRoutes } from "./landing/routes.ts";
import { onError, requestId } from "./middleware.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import { restRoutes } from "./rest/routes.ts";
import { healthRoutes } from "./status/health.ts";
import { statusPageRoutes } from "./status/page.ts";
import { statusApiRoutes } from "./status/routes.ts";
import { termsRoutes } from "./terms.ts";
import { wellKnownRoutes } from "./well_known.ts";

export type { AppDeps, AppEnv } from "./deps.ts";

/** Builds the Folio application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.onError(onError(deps));
  app.notFound((c) =>
    c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404)
  );

  app.route("/.well-known", wellKnownRoutes(deps));
  app.route("/api/health", healthRoutes(deps));
  app.route("/api/status", statusApiRoutes(deps));
  // Agent surfaces: REST on a publisher's custom domain; MCP and A2A there or by id.
  app.route("/api/v1", restRoutes(deps));
  app.route("/api/mcp", mcpRoutes(deps, "param"));
  app.route("/mcp", mcpRoutes(deps, "host"));
  app.route("/a2a", a2aRoutes(deps, "host"));
  app.route("/api/a2a", a2aRoutes(deps, "param"));
  app.route("/api/oauth", oauthRoutes(deps));
  // Buyers and publishers.
  app.route(MARKETPLACE, marketplaceRoutes(deps));
  app.route("/api/publishers", accountRoutes(deps));
  app.route("/api/publishers", cardRoutes(deps));
  app.route("/api/publisher", manageRoutes(deps));
  app.route("/api/openapi.json", openApiRoutes(deps));
  // Every other path on a publisher's custom domain is its site (server/landing/routes.ts).
  app.route("/", publisherHostRoutes(deps));
  // Pages. The portals call the API through the app itself (server/console/api.ts).
  const self = (req: Request, env: unknown) => app.fetch(req, env);
  app.route("/publisher", consoleRoutes(deps, self));
  app.route("/buyer", buyerRoutes(deps, self));
  app.route("/license", termsRoutes(deps));
  app.route("/status", statusPageRoutes(deps));
  app.route("/docs", docsRoutes(deps));
  app.route("/", homeRoutes(deps));
  return app;
}
