/**
 * The operator's own account: who is signed in, the node's operators, operator keys (made and
 * revoked here, shown once) and recovery codes (new ones, and the once-only showing of the codes
 * a session just made). Each change is audited by the domain (server/domain/operators/).
 */
import { Hono } from "hono";
import { listOperatorKeys, listOperators, recoveryCodesLeft } from "../../../store/operators.ts";
import type { AppDeps } from "../../deps.ts";
import { createOperatorKey, keyView, revokeKey } from "../../domain/operators/keys.ts";
import { regenerateRecoveryCodes, takeRecoveryCodes } from "../../domain/operators/accounts.ts";
import { notFound } from "../../platform/errors.ts";
import type { OperatorEnv } from "./auth.ts";
import { json } from "./body.ts";
import { newKeySchema } from "./schemas.ts";

/** The account routes. */
export function accountRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const db = deps.store.db;

  app.get("/session", async (c) => {
    const op = c.get("operator");
    c.header("Cache-Control", "no-store");
    return c.json({
      operatorId: op.id,
      email: op.email,
      name: "Operator",
      via: op.via,
      csrfToken: op.session?.csrfToken ?? null,
      expiresAt: op.session ? new Date(op.session.expiresAt).toISOString() : null,
      recoveryCodesLeft: await recoveryCodesLeft(db, op.id),
    });
  });

  app.get("/operators", async (c) =>
    c.json({
      operators: (await listOperators(db)).map((o) => ({
        id: o.id,
        email: o.email,
        secondFactor: o.totpSecret !== null,
        createdAt: new Date(o.createdAt).toISOString(),
      })),
    }));

  app.get("/keys", async (c) => c.json({ keys: (await listOperatorKeys(db)).map(keyView) }));

  app.post("/keys", json(newKeySchema), async (c) => {
    const op = c.get("operator");
    const { name } = c.req.valid("json");
    const made = await createOperatorKey(db, op.id, name, {
      now: deps.clock.now(),
      actor: op.actor,
    });
    c.header("Cache-Control", "no-store");
    return c.json(made, 201);
  });

  app.delete("/keys/:id", async (c) => {
    const op = c.get("operator");
    return c.json(
      await revokeKey(db, c.req.param("id"), { now: deps.clock.now(), actor: op.actor }),
    );
  });

  // New codes replace the old ones; with a session they are also kept sealed for one showing.
  app.post("/recovery-codes", async (c) => {
    const op = c.get("operator");
    const recoveryCodes = await regenerateRecoveryCodes(db, op.id, op.session, {
      now: deps.clock.now(),
    });
    c.header("Cache-Control", "no-store");
    return c.json({ recoveryCodes }, 201);
  });

  // The codes this session just made, once: the console's page after its redirect.
  app.post("/recovery-codes/reveal", async (c) => {
    const session = c.get("operator").session;
    const codes = session ? await takeRecoveryCodes(db, session) : null;
    if (!codes) throw notFound("Recovery codes to show (they are shown only once)");
    c.header("Cache-Control", "no-store");
    return c.json({ recoveryCodes: codes });
  });

  return app;
}
