/**
 * A buyer's disputes and credit notes (issue 38 part 4): POST /api/marketplace/disputes opens one,
 * GET /disputes and /disputes/<id> show them, GET /credit-notes/<number> a credit note with its
 * items and their signed receipts. The rules: server/domain/billing/disputes.ts.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { openDispute } from "../../domain/billing/disputes.ts";
import { creditNoteDetail, disputesPage } from "../../domain/billing/dispute_pages.ts";
import { disputeOpenSchema } from "../../domain/billing/dispute_schemas.ts";
import { disputeWire } from "../../domain/billing/disputes.ts";
import { getDispute } from "../../../store/disputes.ts";
import { notFound } from "../../platform/errors.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";

/** The dispute routes. */
export function disputeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireBuyer(deps);
  const rules = { db: deps.store.db, clock: deps.clock, config: deps.config };

  app.post("/disputes", auth, json(disputeOpenSchema), async (c) => {
    const input = c.req.valid("json");
    return c.json({ dispute: await openDispute(rules, c.get("buyer").id, input) }, 201);
  });

  app.get("/disputes", auth, async (c) => {
    return c.json(await disputesPage(rules, { buyerId: c.get("buyer").id }, c.req.query()));
  });

  app.get("/disputes/:id", auth, async (c) => {
    const d = await getDispute(deps.store.db, c.req.param("id"));
    if (!d || d.buyerId !== c.get("buyer").id) throw notFound("The dispute");
    return c.json({ dispute: disputeWire(d, deps.config) });
  });

  app.get("/credit-notes/:number", auth, async (c) => {
    return c.json(
      await creditNoteDetail(
        deps.store.db,
        deps.receipts,
        c.get("buyer").id,
        c.req.param("number"),
      ),
    );
  });
  return app;
}
