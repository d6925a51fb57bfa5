/**
 * The catalog and analytics views of the management API: articles (list, per-article policy and
 * price, unpublish and publish), the call log, reader intents and embedding coverage
 * (docs/DESIGN.md §6).
 */
import { Hono } from "hono";
import { recentCalls } from "../../../store/call_log.ts";
import type { CallStatus } from "../../../store/vocabulary.ts";
import { invalid } from "../../platform/errors.ts";
import { recentIntents } from "../../../store/intents.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { describeCallers } from "./callers.ts";
import {
  listManagedArticles,
  patchManagedArticle,
  setManagedArticlePublished,
} from "./articles.ts";
import { articlePatchSchema, articleQuerySchema } from "./schemas.ts";
import { json } from "./body.ts";
import { parseInput } from "../../platform/validate.ts";

/**
 * Which rows GET /calls lists: `calls` (ok and error, the default), one status, or `all`.
 */
export const CALL_STATUS_FILTERS = ["calls", "ok", "error", "trace", "all"] as const;

/** docs/SPEC.md "Events": the call log shows the last 100 calls; reader intents likewise. */
const RECENT = 100;

/** The article, call-log, intent and coverage routes. */
export function articlesRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.get("/articles", async (c) => {
    const query = parseInput(
      articleQuerySchema,
      Object.fromEntries(new URL(c.req.url).searchParams),
    );
    return c.json(await listManagedArticles(deps, c.get("publisher"), query));
  });

  app.patch("/articles/:id", json(articlePatchSchema), async (c) => {
    const patch = c.req.valid("json");
    const article = await patchManagedArticle(deps, c.get("publisher"), {
      id: c.req.param("id"),
      ...patch,
    });
    return c.json({ article });
  });

  for (const [action, published] of [["unpublish", false], ["publish", true]] as const) {
    app.post(`/articles/:id/${action}`, async (c) => {
      const article = await setManagedArticlePublished(deps, c.get("publisher"), {
        id: c.req.param("id"),
        published,
      });
      return c.json({ article });
    });
  }

  app.get("/calls", async (c) => {
    // What this process still buffers is shown too (server/platform/call_log.ts).
    await deps.callLog.flush();
    // By default calls, not protocol traces: a `_method:*` trace row is either the JSON-RPC
    // envelope of a tool call logged on its own row (same request, latency, status and caller)
    // or a handshake (initialize, tools/list, ping, notifications) that uses no content. They are
    // kept and filterable (docs/SPEC.md "Events"): `status=trace` lists them, `status=all` lists
    // everything. Failed protocol requests are logged as errors, not traces.
    const shown = c.req.query("status") ?? "calls";
    if (!(CALL_STATUS_FILTERS as readonly string[]).includes(shown)) {
      throw invalid("status", `must be one of ${CALL_STATUS_FILTERS.join(", ")}`);
    }
    const calls = await recentCalls(db, c.get("publisher").id, {
      limit: RECENT,
      withoutTraces: shown === "calls",
      status: shown === "calls" || shown === "all" ? undefined : shown as CallStatus,
    });
    const callerOf = await describeCallers(db, calls.map((e) => e.identity));
    // The columns of docs/SPEC.md "Events", and who asked (never an anonymous caller's address).
    return c.json({
      calls: calls.map((e) => ({
        at: e.at.toISOString(),
        surface: e.surface,
        tool: e.tool,
        userAgent: e.userAgent,
        latencyMs: e.latencyMs,
        status: e.status,
        httpStatus: e.httpStatus ?? null,
        requestId: e.requestId ?? null,
        caller: callerOf(e.identity),
      })),
    });
  });

  app.get("/intents", async (c) => {
    await deps.callLog.flush();
    const intents = await recentIntents(db, c.get("publisher").id, { limit: RECENT });
    const callerOf = await describeCallers(db, intents.map((i) => i.identity));
    return c.json({
      intents: intents.map(({ identity, ...intent }) => ({
        ...intent,
        caller: callerOf(identity),
      })),
    });
  });

  app.get("/coverage", async (c) => {
    return c.json(await deps.search.coverage(c.get("publisher").id));
  });
  return app;
}
