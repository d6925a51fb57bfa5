/**
 * The operator's disputes (issue 38 part 4): GET /api/operator/disputes (every dispute, by state,
 * publisher or buyer, paged), GET /disputes/<id>, and POST /disputes/<id>/decision, which decides
 * any undecided dispute (escalated or still open) and is audited with the operator as actor.
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { decideDispute, disputeWire } from "../../domain/billing/disputes.ts";
import { disputesPage } from "../../domain/billing/dispute_pages.ts";
import { getDispute } from "../../../store/disputes.ts";
import { notFound } from "../../platform/errors.ts";
import type { OperatorEnv } from "./auth.ts";
import { disputeDecisionSchema } from "./dispute_schemas.ts";
import { json } from "./body.ts";

/** The dispute routes. */
export function disputeRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const rules = { db: deps.store.db, clock: deps.clock, config: deps.config };

  app.get("/disputes", async (c) => c.json(await disputesPage(rules, {}, c.req.query())));

  app.get("/disputes/:id", async (c) => {
    const d = await getDispute(deps.store.db, c.req.param("id"));
    if (!d) throw notFound("The dispute");
    return c.json({ dispute: disputeWire(d, deps.config) });
  });

  app.post("/disputes/:id/decision", json(disputeDecisionSchema), async (c) => {
    const op = c.get("operator");
    const dispute = await decideDispute(rules, c.req.param("id"), {
      kind: "operator",
      id: op.id,
    }, c.req.valid("json"));
    return c.json({ dispute });
  });
  return app;
}
