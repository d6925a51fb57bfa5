/**
 * Every discovery document under /.well-known, in one place: the A2A agent card, the MCP
 * publisher card by slug, and the OAuth metadata (RFC 8414 authorization server, RFC 9728
 * protected resource), and the JWKS that verifies charge receipts (server/domain/billing/receipts.ts).
 * Each surface builds its own document; this room only routes to them.
 */
import { Hono } from "hono";
import { A2A_CORS, agentCardRoute } from "./surfaces/a2a/routes.ts";
import type { AppDeps, AppEnv } from "./deps.ts";
import { mcpJsonRoute } from "./surfaces/mcp/routes.ts";
import { metadataRoutes } from "./surfaces/oauth/endpoint_routes.ts";
import { openCors } from "./platform/cors.ts";

/** The /.well-known sub-app. */
export function wellKnownRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/agent-card.json", A2A_CORS);
  app.get("/agent-card.json", agentCardRoute(deps));
  app.get("/mcp.json", mcpJsonRoute(deps));
  app.route("/", metadataRoutes(deps));
  // Public keys only; old ones stay so old receipts verify. Anyone may fetch it, from anywhere.
  app.use("/jwks.json", openCors({ allowMethods: ["GET", "OPTIONS"], maxAge: 86400 }));
  app.get("/jwks.json", async (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return c.json(await deps.receipts.jwks(), 200, { "Content-Type": "application/jwk-set+json" });
  });
  return app;
}
