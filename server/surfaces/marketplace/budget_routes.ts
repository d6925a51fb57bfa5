/** GET and PUT /api/marketplace/budgets: the buyer's own monthly limits (server/domain/billing/budgets.ts). */
import { Hono } from "hono";
import { budgetReport, changeBudget } from "../../domain/billing/budgets.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { budgetInputSchema } from "./schemas.ts";

/** Budget routes. */
export function budgetRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);

  app.get("/budgets", auth, async (c) => {
    return c.json(await budgetReport(db, c.get("buyer").id, { now: deps.clock.now() }));
  });

  app.put("/budgets", auth, json(budgetInputSchema, { empty: true }), async (c) => {
    const input = c.req.valid("json");
    const now = deps.clock.now();
    await changeBudget(db, c.get("buyer").id, input, { now });
    return c.json(await budgetReport(db, c.get("buyer").id, { now }));
  });
  return app;
}
