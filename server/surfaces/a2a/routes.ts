/**
 * The per-publisher A2A servers (docs/SPEC.md "A2A server"): JSON-RPC 2.0 with A2A v1.0 and v0.3
 * method names on one endpoint (docs/DESIGN.md §6), mounted at /a2a on a publisher's custom
 * domain (publisher by Host) and at /api/a2a/<publisherId> on the platform host; and the agent
 * card served at /.well-known/agent-card.json (server/well_known.ts).
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { openCors } from "../../platform/cors.ts";
import { findPublisherByDomain, findPublisherBySlug } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import {
  bodyLimited,
  callerOf,
  callLogged,
  gate,
  publisherFrom,
  RPC_BODY_LIMIT,
} from "../../platform/envelope.ts";
import { offered } from "../../domain/licensing/reach.ts";
import { hostOf } from "../../platform/middleware.ts";
import { clientAddress } from "../../platform/throttle.ts";
import { loadOnce } from "../../platform/lazy.ts";
import { a2aError, notServed } from "./errors.ts";
import { parseEnvelope } from "./jsonrpc.ts";

// The A2A SDK (express in its tree) loads on the first A2A call or agent card, not at start
// (docs/decisions/operations.md, "What the start fetches"); scripts/compile.ts includes these.
const DISPATCH = ["./dispatch", "ts"].join(".");
const STREAM = ["./stream", "ts"].join(".");
const CARD = ["./card", "ts"].join(".");
const dispatcher = loadOnce((): Promise<typeof import("./dispatch.ts")> => import(DISPATCH));
const streams = loadOnce((): Promise<typeof import("./stream.ts")> => import(STREAM));
const cards = loadOnce((): Promise<typeof import("./card.ts")> => import(CARD));

/** CORS for the card and the endpoint: keys travel in the Authorization header, never cookies. */
export const A2A_CORS: MiddlewareHandler = openCors({
  allowMethods: ["GET", "POST", "OPTIONS"],
  allowHeaders: [
    "Authorization",
    "Content-Type",
    "A2A-Version",
    "A2A-Extensions",
    "Idempotency-Key",
  ],
  exposeHeaders: ["X-Request-Id"],
  maxAge: 86400,
});

/**
 * The JSON-RPC endpoint: the envelope (call log, publisher, reach gate, 1 MiB body limit), then
 * the JSON-RPC envelope checks and one dispatch. `via` says where the publisher comes from.
 */
export function a2aRoutes(deps: AppDeps, via: "host" | "param"): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", A2A_CORS);
  app.onError(a2aError);
  app.post(
    via === "host" ? "/" : "/:publisherId",
    callLogged(deps, "a2a", { tools: ["_method:(invalid)"] }),
    publisherFrom(deps, via),
    // Anonymous callers are `ip:<address>`, as on REST: one paywall meter per address.
    gate(deps, "a2a", (c) => `ip:${clientAddress(c)}`),
    bodyLimited(RPC_BODY_LIMIT),
    async (c) => {
      const env = parseEnvelope(await c.req.text());
      if (env.kind === "invalid") {
        const tool = `_method:${env.method?.slice(0, 64) ?? "(invalid)"}`;
        c.set("call", { tools: [tool], failed: true });
        return c.json(env.response);
      }
      if (env.kind === "notification") {
        c.set("call", { tools: [`_method:${env.method.slice(0, 64)}`], okAs: "trace" });
        return c.body(null, 204);
      }
      const caller = callerOf(c, deps, "a2a");
      const out = await (await dispatcher()).dispatch(deps, {
        ...env,
        publisher: c.get("publisher"),
        caller,
        authenticated: c.get("credential") !== null,
        idempotencyKey: c.req.header("idempotency-key"),
      });
      c.set("call", {
        tools: [out.tool],
        okAs: out.tool.startsWith("_method:") ? "trace" : "ok",
        failed: !out.ok,
      });
      if (out.stream) {
        const onGone = out.tool.startsWith("_method:") ? "stop" : "drain";
        return c.body((await streams()).sseBody(out.stream, onGone), 200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
        });
      }
      if (out.status === 401) c.header("WWW-Authenticate", 'Bearer realm="folio"');
      return c.json(out.response, out.status ?? 200);
    },
  );
  return app;
}

/**
 * GET /.well-known/agent-card.json: by custom domain, or `?slug=` on the platform host; the form
 * of the version asked for (`A2A-Version`, or `?version=` for a browser), see cardVersion.
 */
export function agentCardRoute(deps: AppDeps) {
  return async (c: Context<AppEnv>) => {
    const db = deps.store.db;
    const slug = c.req.query("slug");
    const publisher = await findPublisherByDomain(db, hostOf(c)) ??
      (slug ? await findPublisherBySlug(db, slug.slice(0, 64)) : null);
    if (!publisher || !offered(publisher, "a2a")) return notServed(c, publisher);
    c.header("Cache-Control", "public, max-age=60");
    c.header("Vary", "A2A-Version");
    const { agentCardJson, cardVersion } = await cards();
    const version = cardVersion(c.req.header("A2A-Version"), c.req.query("version"));
    return c.json(agentCardJson(deps.config, publisher, version));
  };
}
