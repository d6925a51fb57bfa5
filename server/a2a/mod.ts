/** The per-publisher A2A servers (SPEC.md "A2A server"). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** A2A routes: agent cards and JSON-RPC endpoints. */
export function a2aRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
