/** Publisher management routes: license requests and earnings. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** Routes for license requests and earnings. */
export function licenseRequestRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
