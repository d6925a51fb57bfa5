/** The buyer marketplace API (SPEC.md "Buyer marketplace API"). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { catalogRoutes } from "./catalog.ts";

/** Marketplace routes under /api/marketplace. */
export function marketplaceRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", catalogRoutes(deps));
  return app;
}
