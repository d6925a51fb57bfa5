/**
 * GET /api/publisher/calls and /calls/csv (issue 34): the call log beyond the last 100, newest
 * first, by date range (UTC days), surface, outcome, caller and article, paged by a cursor; and
 * the same filters as CSV. Each call names the article it read.
 */
import { Hono } from "hono";
import {
  type CallFilter,
  type CallOutcome,
  countCalls,
  listCalls,
  type ListedCall,
} from "../../../store/call_list.ts";
import type { Client } from "../../../store/db.ts";
import type { AppDeps } from "../../deps.ts";
import { parseInput } from "../../platform/validate.ts";
import { toCsv } from "../../platform/csv.ts";
import type { ManageEnv } from "./auth.ts";
import { agentKey, describeAgents } from "./agents.ts";
import { describeCallers } from "./callers.ts";
import { callExportQuerySchema, callQuerySchema } from "./calls_schemas.ts";

const DAY_MS = 86_400_000;
/** The CSV's rows per store read, and at most how many it writes (a year of a busy publisher). */
const CSV_PAGE = 2_000;
const CSV_MAX_ROWS = 200_000;

type Query = {
  from?: string;
  to?: string;
  surface?: CallFilter["surface"];
  outcome?: CallOutcome;
  agent?: string;
  article?: string;
  only?: "reads";
  status?: CallFilter["rows"];
};

/** The store filter of a query: `to` is a whole UTC day, so it ends at the next midnight. */
function filterOf(q: Query): CallFilter {
  return {
    since: q.from ? Date.parse(`${q.from}T00:00:00Z`) : undefined,
    until: q.to ? Date.parse(`${q.to}T00:00:00Z`) + DAY_MS : undefined,
    surface: q.surface,
    outcome: q.outcome,
    agent: q.agent,
    articleId: q.article,
    readsOnly: q.only === "reads",
    rows: q.status,
  };
}

/** How a call went (store/call_list.ts CALL_OUTCOMES, from its status and HTTP status). */
export function outcomeOf(
  c: Pick<ListedCall, "status" | "httpStatus">,
): CallOutcome | "trace" {
  if (c.status === "trace") return "trace";
  if (c.status === "ok") return "ok";
  if (c.httpStatus === 402) return "priced";
  if (c.httpStatus === 404) return "not_found";
  if ([401, 403, 429, 451].includes(c.httpStatus ?? 0)) return "refused";
  return "failed";
}

/** The calls as the API shows them, with their callers and agents named in one lookup each. */
async function present(db: Client, calls: ListedCall[]) {
  const callerOf = await describeCallers(db, calls.map((e) => e.identity));
  const agentOf = await describeAgents(db, [...new Set(calls.map((e) => agentKey(e.identity)))]);
  // The columns of docs/SPEC.md "Events", and who asked (never an anonymous caller's address).
  return calls.map((e) => ({
    id: e.id,
    at: e.at.toISOString(),
    surface: e.surface,
    tool: e.tool,
    userAgent: e.userAgent,
    latencyMs: e.latencyMs,
    status: e.status,
    outcome: outcomeOf(e),
    httpStatus: e.httpStatus,
    requestId: e.requestId,
    caller: callerOf(e.identity),
    agent: agentOf(agentKey(e.identity)),
    article: e.articleId
      ? { id: e.articleId, title: e.article?.title ?? null, url: e.article?.url ?? null }
      : null,
  }));
}

const CSV_COLUMNS = [
  "at",
  "surface",
  "tool",
  "outcome",
  "http_status",
  "caller",
  "caller_key",
  "article_id",
  "article_title",
  "article_url",
  "user_agent",
  "latency_ms",
  "request_id",
];

/** One call as a CSV row (`toCsv()` guards formulas). */
function csvRow(r: Awaited<ReturnType<typeof present>>[number]): string[] {
  return [
    r.at,
    r.surface,
    r.tool,
    r.outcome,
    r.httpStatus === null ? "" : String(r.httpStatus),
    r.agent.name,
    r.agent.key,
    r.article?.id ?? "",
    r.article?.title ?? "",
    r.article?.url ?? "",
    r.userAgent,
    String(r.latencyMs),
    r.requestId ?? "",
  ];
}

/** The calls routes. */
export function callsRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

  app.get("/calls", async (c) => {
    const q = parseInput(callQuerySchema, params(c.req.url));
    // What this process still buffers is shown too (server/platform/call_log.ts).
    await deps.callLog.flush();
    const id = c.get("publisher").id;
    const filter = filterOf(q);
    const [at, row] = q.cursor ? q.cursor.split(".").map(Number) : [];
    const before = q.cursor ? { at, id: row } : null;
    // One more than the page tells whether another follows.
    const [rows, total] = await Promise.all([
      listCalls(db, id, filter, { limit: q.limit + 1, before }),
      countCalls(db, id, filter),
    ]);
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return c.json({
      calls: await present(db, page),
      total,
      nextCursor: rows.length > q.limit && last ? `${last.at.getTime()}.${last.id}` : null,
    });
  });

  app.get("/calls/csv", async (c) => {
    const q = parseInput(callExportQuerySchema, params(c.req.url));
    await deps.callLog.flush();
    const id = c.get("publisher").id;
    const filter = filterOf(q);
    // Streamed a page of rows at a time, so a long export never sits whole in memory.
    let before: { at: number; id: number } | null = null;
    let written = 0;
    const csv = new ReadableStream<string>({
      start(controller) {
        controller.enqueue(toCsv([CSV_COLUMNS]));
      },
      async pull(controller) {
        const rows = written < CSV_MAX_ROWS
          ? await listCalls(db, id, filter, {
            limit: Math.min(CSV_PAGE, CSV_MAX_ROWS - written),
            before,
          })
          : [];
        if (rows.length === 0) return controller.close();
        controller.enqueue(toCsv((await present(db, rows)).map(csvRow)));
        written += rows.length;
        const last = rows.at(-1)!;
        before = { at: last.at.getTime(), id: last.id };
      },
    });
    const span = [q.from, q.to].filter(Boolean).join("_to_") || "all";
    c.header("Content-Disposition", `attachment; filename="folio-calls-${span}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(csv.pipeThrough(new TextEncoderStream()), 200, {
      "Content-Type": "text/csv; charset=utf-8",
    });
  });
  return app;
}
