/** Buyer accounts: signup, key rotation and MCP installs (docs/SPEC.md "Buyer marketplace API"). */
import { Hono } from "hono";
import { listBuyerClients } from "../../../store/buyer_clients.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { createBuyer, rotateBuyerKey } from "./buyers.ts";
import { registerClient } from "./clients.ts";
import { clientInputSchema, signupSchema } from "./schemas.ts";
import { clientAddress, throttle } from "../../platform/throttle.ts";

/** Buyer sign-ups per address (docs/TEST-PLAN.md 5.10): generous for a team, useless for key farming. */
export const SIGNUP_LIMIT = { limit: 20, windowMs: 3_600_000 };

/** POST signup (with an optional portal password), POST rotate-key, POST/GET clients. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);

  app.post("/signup", json(signupSchema, { empty: true }), async (c) => {
    await throttle(deps, `buyer-signup:ip:${clientAddress(c)}`, SIGNUP_LIMIT);
    const input = c.req.valid("json");
    const { buyerId, apiKey } = await createBuyer(db, input, { now: deps.clock.now() });
    c.header("Cache-Control", "no-store");
    return c.json({
      buyerId,
      apiKey,
      clientId: `buyer:${buyerId}`,
      note: "Store this key now: it is shown once. Send it as Authorization: Bearer <key>.",
    }, 201);
  });

  app.post("/rotate-key", auth, async (c) => {
    const apiKey = await rotateBuyerKey(db, c.get("buyer").id, {
      now: deps.clock.now(),
      keepSession: c.get("buyerSession")?.tokenHash ?? null,
    });
    c.header("Cache-Control", "no-store");
    return c.json({ apiKey });
  });

  app.post("/clients", auth, json(clientInputSchema, { empty: true }), async (c) => {
    const { clientId } = c.req.valid("json");
    const r = await registerClient(db, c.get("buyer").id, clientId);
    return c.json({ clientId: r.clientId, buyerId: c.get("buyer").id }, r.created ? 201 : 200);
  });

  app.get("/clients", auth, async (c) => {
    return c.json({ clients: await listBuyerClients(db, c.get("buyer").id) });
  });
  return app;
}
