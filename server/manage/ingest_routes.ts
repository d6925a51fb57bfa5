/** Publisher management routes: sources, jobs, books. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** Routes for sources, jobs, books. */
export function ingestRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
