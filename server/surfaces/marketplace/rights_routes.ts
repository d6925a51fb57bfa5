/**
 * GET /api/marketplace/rights/<publisherId>: what the buyer holds with a publisher, by the one
 * rights table (server/domain/licensing/rights.ts), and what it may buy there.
 */
import { Hono } from "hono";
import { getPublisher } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { heldReport } from "../../domain/reads/held_rights.ts";
import { notFound } from "../../platform/errors.ts";
import { requireBuyer } from "./auth.ts";

/** The buyer's rights route. */
export function rightsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/rights/:publisherId", requireBuyer(deps), async (c) => {
    const publisher = await getPublisher(deps.store.db, c.req.param("publisherId"));
    if (!publisher) throw notFound("Publisher");
    const report = await heldReport(deps.store.db, c.get("buyer").id, publisher, {
      now: deps.clock.now(),
    });
    return c.json(report);
  });
  return app;
}
