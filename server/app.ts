/**
 * The HTTP application, built from injected dependencies with no I/O at import time.
 * Each surface is a sub-app mounted here; they stay thin over the domain folders.
 */
import { Hono } from "hono";
import { a2aRoutes } from "./a2a/mod.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { errorBody } from "./errors.ts";
import { homeRoutes } from "./home.ts";
import { manageRoutes } from "./manage/mod.ts";
import { marketplaceRoutes } from "./marketplace/mod.ts";
import { mcpRoutes } from "./mcp/mod.ts";
import { onError, requestId } from "./middleware.ts";
import { oauthRoutes } from "./oauth/mod.ts";
import { restRoutes } from "./rest/routes.ts";
import { healthRoutes } from "./status/health.ts";
import { termsRoutes } from "./terms.ts";

export type { AppDeps, AppEnv } from "./deps.ts";

/** Builds the Folio application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  app.onError(onError(deps));
  app.notFound((c) =>
    c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404)
  );

  app.route("/", healthRoutes(deps));
  app.route("/", restRoutes(deps));
  app.route("/", marketplaceRoutes(deps));
  app.route("/", manageRoutes(deps));
  app.route("/", oauthRoutes(deps));
  app.route("/", mcpRoutes(deps));
  app.route("/", a2aRoutes(deps));
  app.route("/", termsRoutes(deps));
  app.route("/", homeRoutes(deps));
  return app;
}
