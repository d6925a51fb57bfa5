/**
 * The OAuth 2.1 authorization server for MCP installs (docs/SPEC.md "OAuth and discovery"),
 * mounted at /api/oauth: registration, token, and authorize with the consent screen. Its
 * metadata documents are served under /.well-known (server/well_known.ts).
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { authorizeRoutes } from "./authorize_routes.ts";
import { endpointRoutes } from "./endpoint_routes.ts";

/** OAuth routes: registration, token, authorize. */
export function oauthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", endpointRoutes(deps));
  app.route("/", authorizeRoutes(deps));
  return app;
}
