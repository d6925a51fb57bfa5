/** The publisher management API (docs/DESIGN.md section 6), documented at GET /api/openapi.json. */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { accountRoutes } from "./account_routes.ts";
import { ingestRoutes } from "./ingest_routes.ts";
import { licenseRequestRoutes } from "./license_request_routes.ts";

/** Management routes under /api/publishers, /api/publisher and /api/openapi.json. */
export function manageRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", accountRoutes(deps));
  app.route("/", ingestRoutes(deps));
  app.route("/", licenseRequestRoutes(deps));
  return app;
}
