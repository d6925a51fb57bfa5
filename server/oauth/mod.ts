/** The OAuth 2.1 authorization server for MCP installs (SPEC.md "OAuth and discovery"). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** OAuth routes: metadata, registration, authorize, token. */
export function oauthRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
