/** The publisher management API (DESIGN.md section 6), documented at GET /api/openapi.json. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** Management routes under /api/publishers and /api/publisher. */
export function manageRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
