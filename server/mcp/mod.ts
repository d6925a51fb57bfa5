/** The per-publisher MCP servers (SPEC.md "MCP server"). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";

/** MCP routes: POST/GET/DELETE /api/mcp/:publisherId and discovery. */
export function mcpRoutes(_deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
