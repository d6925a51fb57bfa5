/** The OAuth 2.1 authorization server for MCP installs (docs/SPEC.md "OAuth and discovery"). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { authorizeRoutes } from "./authorize_routes.ts";
import { endpointRoutes } from "./endpoint_routes.ts";

export { type TokenGrant, verifyAccessToken } from "./tokens.ts";
export { mcpResourceUri, protectedResourceMetadataUrl } from "./metadata.ts";

/** OAuth routes: metadata, registration, authorize (with the consent screen), token. */
export function oauthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", endpointRoutes(deps));
  app.route("/", authorizeRoutes(deps));
  return app;
}
