/**
 * The per-publisher A2A servers (docs/SPEC.md "A2A server"):
 *   GET  https://{publisher_host}/.well-known/agent-card.json, or on the platform host
 *        GET /.well-known/agent-card.json?slug=<slug>;
 *   POST https://{publisher_host}/a2a, or POST /api/a2a/<publisherId> (JSON-RPC 2.0, A2A v1.0 and
 *        v0.3 method names on the same endpoint, docs/DESIGN.md §6).
 * A publisher with A2A off, an unknown host and an unknown publisher all answer 404.
 */
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import {
  findPublisherByDomain,
  findPublisherBySlug,
  getPublisher,
  type Publisher,
} from "../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError, errorBody } from "../errors.ts";
import { hostOf } from "../middleware.ts";
import { a2aCaller } from "./caller.ts";
import { agentCardJson } from "./card.ts";
import { dispatch } from "./dispatch.ts";
import { CODES, MAX_BODY_BYTES, parseEnvelope, readLimited, rpcError } from "./jsonrpc.ts";

/** A2A routes: agent cards and JSON-RPC endpoints. */
export function a2aRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Cards are public; the endpoint takes keys in the Authorization header, never cookies.
  const open = cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "A2A-Version", "A2A-Extensions"],
    exposeHeaders: ["X-Request-Id"],
    maxAge: 86400,
  });
  app.use("/.well-known/agent-card.json", open);
  app.use("/a2a", open);
  app.use("/api/a2a/*", open);

  app.get("/.well-known/agent-card.json", async (c) => {
    const db = deps.store.db;
    const slug = c.req.query("slug");
    const publisher = await findPublisherByDomain(db, hostOf(c)) ??
      (slug ? await findPublisherBySlug(db, slug.slice(0, 64)) : null);
    if (!publisher?.toggles.a2a) return notHere(c, publisher);
    c.header("Cache-Control", "public, max-age=60");
    return c.json(agentCardJson(deps.config, publisher));
  });
  app.post("/a2a", async (c) => {
    return await endpoint(c, deps, await findPublisherByDomain(deps.store.db, hostOf(c)));
  });
  app.post("/api/a2a/:publisherId", async (c) => {
    return await endpoint(c, deps, await getPublisher(deps.store.db, c.req.param("publisherId")));
  });
  return app;
}

/** One JSON-RPC request: publisher → caller → body → envelope → dispatch, then the call log. */
async function endpoint(
  c: Context<AppEnv>,
  deps: AppDeps,
  publisher: Publisher | null,
): Promise<Response> {
  if (!publisher?.toggles.a2a) return notHere(c, publisher);
  const started = performance.now();
  let identity: string | null = null;
  let tool = "_method:(invalid)";
  let ok = false;
  let res: Response;
  try {
    const caller = await a2aCaller(c, deps, publisher);
    identity = caller.identity;
    const text = await readLimited(c.req.raw);
    if (text === null) {
      res = c.json(
        rpcError(
          null,
          CODES.invalidRequest,
          `Request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB)`,
        ),
        413,
      );
    } else {
      const env = parseEnvelope(text);
      if (env.kind === "invalid") {
        if (env.method) tool = `_method:${env.method.slice(0, 64)}`;
        res = c.json(env.response);
      } else if (env.kind === "notification") {
        tool = `_method:${env.method.slice(0, 64)}`;
        ok = true;
        res = c.body(null, 204);
      } else {
        const out = await dispatch(deps, { ...env, publisher, caller });
        tool = out.tool;
        ok = out.ok;
        res = c.json(out.response);
      }
    }
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 401) throw err;
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    res = c.json(rpcError(null, CODES.unauthenticated, err.message, { status: err.code }), 401);
  }
  deps.callLog.record({
    publisherId: publisher.id,
    at: deps.clock.now(),
    surface: "a2a",
    tool,
    userAgent: c.req.header("user-agent") ?? "",
    latencyMs: performance.now() - started,
    status: !ok ? "error" : tool.startsWith("_method:") ? "trace" : "ok",
    httpStatus: res.status,
    identity,
    requestId: c.get("requestId"),
  });
  return res;
}

function notHere(c: Context<AppEnv>, publisher: Publisher | null): Response {
  return publisher
    ? c.json(errorBody("a2a_disabled", `${publisher.name} has not enabled its A2A server`), 404)
    : c.json(errorBody("unknown_publisher", "No publisher is served here"), 404);
}
