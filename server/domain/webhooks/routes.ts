/**
 * The webhook operations as routes, mounted by the management API (a publisher's endpoints) and
 * the marketplace (a buyer's): the same paths and answers under each, the owner taken from the
 * request's authentication by `ownerOf`.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { AppError } from "../../platform/errors.ts";
import { throttle } from "../../platform/throttle.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import type { jsonBodies } from "../../platform/json_body.ts";
import {
  addEndpoint,
  deliveryDetail,
  deliveryList,
  endpointList,
  endpointOf,
  type HookDeps,
  presentEndpoint,
  removeEndpoint,
  replayDelivery,
  rotateEndpointSecret,
  sendTestEvent,
} from "./endpoints.ts";
import type { Owner } from "./events.ts";
import { endpointInputSchema } from "./schemas.ts";

/**
 * Test events and replays an owner may ask for per hour: plenty for debugging a receiver, too few
 * to make Folio a cannon aimed at someone else's server.
 */
export const SENDS = { limit: 120, windowMs: 60 * 60_000 };

/**
 * What a surface hands in: its auth middleware (which sets `c.var[kind]`), its JSON reader, and
 * which kind of owner it authenticates.
 */
export interface WebhookRouteOptions {
  // deno-lint-ignore no-explicit-any
  auth: MiddlewareHandler<any>;
  json: ReturnType<typeof jsonBodies>;
  kind: Owner["kind"];
}

/** The nine webhook routes. */
export function webhookRoutes(deps: AppDeps, opts: WebhookRouteOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const o = {
    ...opts,
    ownerOf(c: Context<AppEnv>): Owner {
      const who = c.get(opts.kind);
      // Behind `auth` it is always set; refuse rather than act for nobody.
      if (!who) throw new AppError(401, "unauthenticated", "Sign in first");
      return { kind: opts.kind, id: who.id };
    },
  };
  const db = deps.store.db;
  const hooks = (): HookDeps => ({
    db,
    now: deps.clock.now(),
    allowLoopback: deps.config.fetchAllowLoopback,
  });
  const secretAnswer = (c: Context<AppEnv>) => c.header("Cache-Control", "no-store");

  app.get("/webhook-endpoints", o.auth, async (c) => c.json(await endpointList(db, o.ownerOf(c))));
  app.post("/webhook-endpoints", o.auth, o.json(endpointInputSchema), async (c) => {
    const made = await addEndpoint(hooks(), o.ownerOf(c), c.req.valid("json"));
    secretAnswer(c);
    return c.json(made, 201);
  });
  app.get("/webhook-endpoints/:id", o.auth, async (c) => {
    const e = await endpointOf(db, o.ownerOf(c), c.req.param("id"));
    return c.json({ endpoint: presentEndpoint(e) });
  });
  app.delete("/webhook-endpoints/:id", o.auth, async (c) => {
    await removeEndpoint(db, o.ownerOf(c), c.req.param("id"));
    return c.body(null, 204);
  });
  app.post("/webhook-endpoints/:id/rotate-secret", o.auth, async (c) => {
    const rotated = await rotateEndpointSecret(hooks(), o.ownerOf(c), c.req.param("id"));
    secretAnswer(c);
    return c.json(rotated);
  });
  app.post("/webhook-endpoints/:id/test", o.auth, async (c) => {
    const owner = o.ownerOf(c);
    await throttle(deps, `webhook-send:${owner.kind}:${owner.id}`, SENDS);
    return c.json(await sendTestEvent(hooks(), owner, c.req.param("id")), 202);
  });
  app.get("/webhook-endpoints/:id/deliveries", o.auth, async (c) => {
    return c.json(await deliveryList(db, o.ownerOf(c), c.req.param("id")));
  });
  app.get("/webhook-deliveries/:id", o.auth, async (c) => {
    return c.json(await deliveryDetail(db, o.ownerOf(c), c.req.param("id")));
  });
  app.post("/webhook-deliveries/:id/replay", o.auth, async (c) => {
    const owner = o.ownerOf(c);
    await throttle(deps, `webhook-send:${owner.kind}:${owner.id}`, SENDS);
    return c.json(await replayDelivery(hooks(), owner, c.req.param("id")), 202);
  });
  return app;
}
