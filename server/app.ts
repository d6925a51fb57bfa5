/**
 * The HTTP application, built from injected dependencies with no I/O at import time. Every
 * surface is a sub-app mounted by its path prefix; the root adds only the request id and the
 * one error model. Agent surfaces run the request envelope (server/platform/envelope.ts) themselves.
 */
import { Hono } from "hono";
import { a2aRoutes } from "./surfaces/a2a/routes.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { errorBody } from "./platform/errors.ts";
import { buyerRoutes } from "./pages/buyer/routes.ts";
import { consoleRoutes } from "./pages/console/routes.ts";
import { homeRoutes } from "./pages/home.ts";
import { accountRoutes } from "./surfaces/manage/account_routes.ts";
import { docsRoutes } from "./surfaces/openapi/docs_routes.ts";
import { openApiRoutes } from "./surfaces/openapi/document.ts";
import { manageRoutes } from "./surfaces/manage/routes.ts";
import { MARKETPLACE, marketplaceRoutes } from "./surfaces/marketplace/routes.ts";
import { cardRoutes, mcpRoutes } from "./surfaces/mcp/routes.ts";
import { publisherHostRoutes } from "./surfaces/landing/routes.ts";
import { onError, requestId } from "./platform/middleware.ts";
import { oauthRoutes } from "./surfaces/oauth/routes.ts";
import { restRoutes } from "./surfaces/rest/routes.ts";
import { healthRoutes } from "./surfaces/status/health.ts";
import { statusPageRoutes } from "./pages/status.ts";
import { statusApiRoutes } from "./surfaces/status/routes.ts";
import { termsRoutes } from "./pages/terms.ts";
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
  // Every other path on a publisher's custom domain is its site (server/surfaces/landing/routes.ts).
  app.route("/", publisherHostRoutes(deps));
  // Pages. The portals call the API through the app itself (server/pages/kit/api.ts).
  const self = (req: Request, env: unknown) => app.fetch(req, env);
  app.route("/publisher", consoleRoutes(deps, self));
  app.route("/buyer", buyerRoutes(deps, self));
  app.route("/license", termsRoutes(deps));
  app.route("/status", statusPageRoutes(deps));
  app.route("/docs", docsRoutes(deps));
  app.route("/", homeRoutes(deps));
  return app;
}
