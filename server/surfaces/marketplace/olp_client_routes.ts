/**
 * A buyer's RSL license-server credentials (docs/decisions/rsl.md): the OLP client a crawler
 * authenticates with at /api/olp/token to acquire license tokens that bill this buyer.
 *   GET  /olp-client         the client id and dates (never the secret), or null
 *   POST /olp-client         issue the client, or rotate its secret: the new secret is in this
 *                            answer only (stored as its hash); the old one stops working at once
 */
import { Hono } from "hono";
import { issueOlpSecret, olpClientOfBuyer } from "../../../store/olp_clients.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { hashSecret, newSecret, randomBase62 } from "../../platform/secrets.ts";
import { requireBuyer } from "./auth.ts";
import { olpServerOf } from "../../domain/rsl/license_tokens.ts";

/** OLP client routes. */
export function olpClientRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireBuyer(deps);
  const tokenEndpoint = () => `${olpServerOf(deps.config.baseUrl)}/token`;

  app.get("/olp-client", auth, async (c) => {
    const client = await olpClientOfBuyer(deps.store.db, c.get("buyer").id);
    const body = client
      ? { clientId: client.clientId, createdAt: client.createdAt, rotatedAt: client.rotatedAt }
      : null;
    return c.json({ client: body, tokenEndpoint: tokenEndpoint() });
  });

  app.post("/olp-client", auth, async (c) => {
    const secret = newSecret("olps");
    const client = await issueOlpSecret(deps.store.db, c.get("buyer").id, {
      clientId: `olp_${randomBase62(20)}`,
      secretHash: await hashSecret(secret),
      now: deps.clock.now(),
    });
    c.header("Cache-Control", "no-store");
    return c.json({
      clientId: client.clientId,
      createdAt: client.createdAt,
      rotatedAt: client.rotatedAt,
      clientSecret: secret,
      tokenEndpoint: tokenEndpoint(),
      note: "Store this secret now: it is shown once. Authenticate to the token endpoint with " +
        "HTTP Basic (client id and secret).",
    }, 201);
  });
  return app;
}
