/**
 * The publisher's disputes (issue 38 part 4): GET /api/publisher/disputes (paged, by state) and
 * POST /api/publisher/disputes/<id>/decision (accept in full or in part, or refuse with a reason).
 * The rules and the credit note: server/domain/billing/disputes.ts.
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { decideDispute } from "../../domain/billing/disputes.ts";
import { disputesPage } from "../../domain/billing/dispute_pages.ts";
import { disputeDecisionSchema } from "../../domain/billing/dispute_schemas.ts";
import type { ManageEnv } from "./auth.ts";
import { json } from "./body.ts";

/** The dispute routes. */
export function disputeRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const rules = { db: deps.store.db, clock: deps.clock, config: deps.config };

  app.get("/disputes", async (c) => {
    return c.json(await disputesPage(rules, { publisherId: c.get("publisher").id }, c.req.query()));
  });

  app.post("/disputes/:id/decision", json(disputeDecisionSchema), async (c) => {
    const publisher = c.get("publisher");
    const dispute = await decideDispute(rules, c.req.param("id"), {
      kind: "publisher",
      id: publisher.id,
    }, c.req.valid("json"));
    return c.json({ dispute });
  });
  return app;
}
