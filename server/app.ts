/**
 * The HTTP application, built from injected dependencies with no I/O at import time. Every
 * surface is a sub-app mounted by its path prefix; the root adds only the request id and the
 * one error model. Agent surfaces run the request envelope (server/platform/envelope.ts) themselves.
 * Which tree answers, the platform's or a publisher's site, is decided from the Host before
 * routing, in one function (`answerFor()`, server/platform/host_router.ts).
 */
import { type Env, Hono } from "hono";
import { a2aRoutes } from "./surfaces/a2a/routes.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { buyerRoutes } from "./pages/buyer/routes.ts";
import { consoleRoutes } from "./pages/console/routes.ts";
import { faviconRoutes } from "./pages/favicon.ts";
import { homeRoutes } from "./pages/home.ts";
import { notFound } from "./pages/not_found.ts";
import { accountRoutes } from "./surfaces/manage/account_routes.ts";
import { docsRoutes } from "./surfaces/openapi/docs_routes.ts";
import { openApiRoutes } from "./surfaces/openapi/document.ts";
import { manageRoutes } from "./surfaces/manage/routes.ts";
import { MARKETPLACE, marketplaceRoutes } from "./surfaces/marketplace/routes.ts";
import { cardRoutes, mcpRoutes } from "./surfaces/mcp/routes.ts";
import { siteRoutes } from "./surfaces/landing/routes.ts";
import { gateRoutes } from "./surfaces/landing/gate_routes.ts";
import {
  answerFor,
  badHost,
  claimsOf,
  type Mounted,
  routed,
  routedPath,
  SITE,
} from "./platform/host_router.ts";
import { onError, requestId, withoutLength } from "./platform/middleware.ts";
import { oauthRoutes } from "./surfaces/oauth/routes.ts";
import { OLP, olpRoutes } from "./surfaces/olp/routes.ts";
import { restRoutes } from "./surfaces/rest/routes.ts";
import { operatorRoutes } from "./surfaces/operator/routes.ts";
import { operatorPages } from "./pages/operator/routes.ts";
import { healthRoutes } from "./surfaces/status/health.ts";
import { statusPageRoutes } from "./pages/status.ts";
import { statusApiRoutes } from "./surfaces/status/routes.ts";
import { termsRoutes } from "./pages/terms.ts";
import { wellKnownRoutes } from "./well_known.ts";

export type { AppDeps, AppEnv } from "./deps.ts";

/** Builds the Folio application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: routedPath });
  app.use(requestId());
  app.onError(onError(deps));
  app.notFound(notFound(deps));

  // Served on every host, a publisher's custom domain too: the agent surfaces (REST on a custom
  // domain; MCP and A2A there or by id) and the documents that describe them.
  const everyHost: Mounted[] = [];
  const mount = <E extends Env>(prefix: string, routes: Hono<E>) => {
    app.route(prefix, routes);
    everyHost.push([prefix, routes]);
  };
  mount("/.well-known", wellKnownRoutes(deps));
  mount("/api/health", healthRoutes(deps));
  mount("/api/status", statusApiRoutes(deps));
  mount("/api/v1", restRoutes(deps));
  mount("/api/mcp", mcpRoutes(deps, "param"));
  mount("/mcp", mcpRoutes(deps, "host"));
  mount("/a2a", a2aRoutes(deps, "host"));
  mount("/api/a2a", a2aRoutes(deps, "param"));
  mount("/api/oauth", oauthRoutes(deps));
  // The RSL license server every license.xml names (docs/decisions/rsl.md).
  mount(OLP, olpRoutes(deps));
  mount(MARKETPLACE, marketplaceRoutes(deps));
  mount("/api/publishers", accountRoutes(deps));
  mount("/api/publishers", cardRoutes(deps));
  mount("/api/publisher", manageRoutes(deps));
  mount("/api/openapi.json", openApiRoutes(deps));
  // Issue 38: the operator API; the platform's host only (docs/decisions/operator.md).
  app.route("/api/operator", operatorRoutes(deps));
  // The crawler gate in front of a publisher's own site (docs/decisions/crawler-gate.md).
  mount("/api/gate", gateRoutes(deps));
  // The platform's pages. The portals call the API through the app itself (server/pages/kit/api.ts).
  const self = (req: Request, env: unknown) => app.fetch(req, env);
  app.route("/publisher", consoleRoutes(deps, self));
  app.route("/buyer", buyerRoutes(deps, self));
  app.route("/operator", operatorPages(deps, self));
  app.route("/license", termsRoutes(deps));
  app.route("/status", statusPageRoutes(deps));
  app.route("/docs", docsRoutes(deps));
  app.route("/", homeRoutes(deps));
  app.route("/", faviconRoutes(deps));
  // A publisher's site pages on the platform's host, for publishers without a custom domain.
  app.route("/read/:publisherId", siteRoutes(deps, "platform"));
  // Every other path on a publisher's custom domain: its site (server/surfaces/landing/routes.ts).
  app.route(SITE, siteRoutes(deps));

  // The host router: the answer goes with the request to `routedPath()` and the site's c.var.
  const claims = claimsOf(everyHost);
  const route = app.fetch;
  app.fetch = async (req, env, ctx) =>
    badHost(req) ??
      withoutLength(req, await route(req, routed(env, await answerFor(deps, req, claims)), ctx));
  return app;
}
