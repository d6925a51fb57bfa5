/**
 * The management API's traffic and call-log operations (issue 34): calls beyond the last 100 with
 * date ranges, filters, a cursor and CSV; traffic per caller per day; top articles.
 */
import { CALL_OUTCOMES } from "../../../store/call_list.ts";
import { SURFACES } from "../../../store/vocabulary.ts";
import { callListSchema } from "../manage/calls_schemas.ts";
import { topArticlesSchema, trafficSchema } from "../manage/traffic_schemas.ts";
import { type Operation, type Paths, query } from "./kit.ts";

const DATE = { type: "string", format: "date", description: "A UTC day, YYYY-MM-DD" };
const DAYS = query("days", { type: "integer", minimum: 1, maximum: 90, default: 30 });

/** The filters the call list and its CSV share. */
const CALL_FILTERS = [
  query("from", { ...DATE, description: "First UTC day, inclusive" }),
  query("to", { ...DATE, description: "Last UTC day, inclusive; not before from" }),
  query("surface", { type: "string", enum: [...SURFACES] }),
  query("outcome", { type: "string", enum: [...CALL_OUTCOMES] }),
  query("agent", {
    type: "string",
    maxLength: 200,
    description: "Who called: an `agent.key` (`crawler:GPTBot`, `buyer:<id>`, `anonymous`)",
  }),
  query("article", { type: "string", maxLength: 200, description: "An article id" }),
  query("only", {
    type: "string",
    enum: ["reads"],
    description: "Only calls that read an article",
  }),
  query("status", {
    type: "string",
    enum: ["calls", "ok", "error", "trace", "all"],
    default: "calls",
    description: "Which rows: calls (ok and error), one status, trace (the protocol rows, " +
      "`_method:<name>`: the JSON-RPC envelope of a tool call, or a handshake such as " +
      "initialize, tools/list, ping) or all",
  }),
];

/** The paths, each operation made authenticated by `authed`. */
export function analyticsPaths(authed: (o: Omit<Operation, "auth">) => Operation): Paths {
  return {
    "/api/publisher/calls": {
      get: authed({
        summary: "Calls to this publisher, newest first: filters, date range, paging",
        description: "Each call names who made it (`agent`, grouped as the traffic chart groups " +
          "them), how it went (`outcome`) and the article it read. Protocol trace rows " +
          "(`_method:*` with status trace) are left out unless `status` asks for them; an " +
          "anonymous caller's address is never shown. Pass `nextCursor` as `cursor` for the next page; `total` counts every match.",
        params: [
          ...CALL_FILTERS,
          query("limit", { type: "integer", minimum: 1, maximum: 500, default: 100 }),
          query("cursor", { type: "string", description: "nextCursor of the previous page" }),
        ],
        ok: [200, callListSchema],
        errors: [400],
      }),
    },
    "/api/publisher/calls/csv": {
      get: authed({
        summary: "The calls matching the filters as CSV (at most 200,000, newest first)",
        description: "Columns: at, surface, tool, outcome, http_status, caller, caller_key, " +
          "article_id, article_title, article_url, user_agent, latency_ms, request_id. Text " +
          "that a spreadsheet would run as a formula starts with an apostrophe.",
        params: CALL_FILTERS,
        ok: [200, { "text/csv": { schema: { type: "string" } } }],
        headers: {
          "Content-Disposition": {
            schema: { type: "string" },
            description: "attachment; filename=folio-calls-….csv",
          },
        },
        errors: [400],
      }),
    },
    "/api/publisher/analytics/traffic": {
      get: authed({
        summary: "Calls per caller per day: crawlers, signed agents, buyers, apps, anonymous",
        description: "The callers with the most calls in the window get a series each (up to " +
          "`top`, default 6); the rest are summed under `others`. Days are UTC.",
        params: [DAYS, query("top", { type: "integer", minimum: 1, maximum: 12, default: 6 })],
        ok: [200, trafficSchema],
        errors: [400],
      }),
    },
    "/api/publisher/analytics/articles": {
      get: authed({
        summary: "Top articles by reads or by earnings",
        description: "reads: successful calls that read the article (any surface); earnings: " +
          "its per-read charges (metered and pay-per-crawl), the publisher's share before fees " +
          "as the earnings page shows it. Days are UTC.",
        params: [
          DAYS,
          query("by", { type: "string", enum: ["reads", "earnings"], default: "reads" }),
          query("limit", { type: "integer", minimum: 1, maximum: 50, default: 10 }),
        ],
        ok: [200, topArticlesSchema],
        errors: [400],
      }),
    },
  };
}
