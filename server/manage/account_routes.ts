/** Publisher management routes: signup, login, settings, rules, articles, calls, intents, coverage, OpenAPI. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** Routes for signup, login, settings, rules, articles, calls, intents, coverage, OpenAPI. */
export function accountRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
