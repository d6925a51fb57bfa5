/**
 * GET|POST /api/publisher/rules, PATCH|DELETE /api/publisher/rules/:id, POST /rules/order and
 * GET /rules/explain (docs/DESIGN.md §6).
 */
import { Hono } from "hono";
import { deleteRule } from "../../../store/rules.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { notFound } from "../../platform/errors.ts";
import { explainRules } from "./explain.ts";
import {
  createRule,
  listPresentedRules,
  patchRule,
  presentRule,
  reorderPublisherRules,
} from "./rules.ts";
import {
  explainQuerySchema,
  ruleInputSchema,
  ruleOrderSchema,
  rulePatchSchema,
} from "./schemas.ts";
import { json } from "./body.ts";
import { parseInput } from "../../platform/validate.ts";

/** The content-rule routes. */
export function rulesRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.get("/rules", async (c) => {
    return c.json({ rules: await listPresentedRules(db, c.get("publisher").id) });
  });

  app.post("/rules", json(ruleInputSchema), async (c) => {
    const input = c.req.valid("json");
    const rule = await createRule(db, c.get("publisher").id, input, { now: deps.clock.now() });
    return c.json({ rule: presentRule(rule) }, 201);
  });

  app.post("/rules/order", json(ruleOrderSchema), async (c) => {
    const { ids } = c.req.valid("json");
    await reorderPublisherRules(db, c.get("publisher").id, ids);
    return c.json({ rules: await listPresentedRules(db, c.get("publisher").id) });
  });

  app.get("/rules/explain", async (c) => {
    const query = parseInput(
      explainQuerySchema,
      Object.fromEntries(new URL(c.req.url).searchParams),
    );
    return c.json(await explainRules(deps, c.get("publisher"), query));
  });

  app.patch("/rules/:id", json(rulePatchSchema), async (c) => {
    const patch = c.req.valid("json");
    const rule = await patchRule(db, c.get("publisher").id, c.req.param("id"), patch);
    return c.json({ rule: presentRule(rule) });
  });

  app.delete("/rules/:id", async (c) => {
    if (!await deleteRule(db, c.get("publisher").id, c.req.param("id"))) throw notFound("Rule");
    return c.body(null, 204);
  });
  return app;
}
