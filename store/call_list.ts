/**
 * The publisher's calls as the console and the management API list them (issue 34): newest first,
 * paged by a (time, id) cursor, within a date range, filtered by surface, outcome, who called and
 * article, each with the article it read. Protocol trace rows (`_method:*`, status trace) are
 * listed only when the filter's `rows` asks for them (docs/SPEC.md "Events": filterable).
 */
import type { InValue } from "@libsql/client";
import { callOf } from "./call_log.ts";
import type { Client } from "./db.ts";
import type { CallStatus, Surface } from "./vocabulary.ts";

/** How a call went, from its status and HTTP status (a 402 is a price quote, not a failure). */
export const CALL_OUTCOMES = ["ok", "priced", "refused", "not_found", "failed"] as const;
export type CallOutcome = typeof CALL_OUTCOMES[number];

const REFUSED = "401, 403, 429, 451";
const OUTCOME_SQL: Record<CallOutcome, string> = {
  ok: "c.status = 'ok'",
  priced: "c.status = 'error' AND c.http_status = 402",
  refused: `c.status = 'error' AND c.http_status IN (${REFUSED})`,
  not_found: "c.status = 'error' AND c.http_status = 404",
  failed:
    `c.status = 'error' AND (c.http_status IS NULL OR c.http_status NOT IN (402, 404, ${REFUSED}))`,
};

/**
 * Who called, as one key per caller for grouping and filtering: the identity as logged for
 * crawlers (`crawler:<family>`), signed agents (`agent:<host>`), buyers, OAuth clients and the
 * publisher's own playground; `anonymous` for everyone known only by address or session, whose
 * address is never shown.
 */
export const AGENT_KEY_SQL = `CASE WHEN identity IS NULL OR identity LIKE 'ip:%'
  OR identity LIKE 'sess:%' THEN 'anonymous' ELSE identity END`;

/** Which rows a listing holds: calls (ok and error, the default), one status, or every row. */
export const CALL_ROWS = ["calls", "ok", "error", "trace", "all"] as const;
export type CallRows = typeof CALL_ROWS[number];

const ROWS_SQL: Record<CallRows, string | null> = {
  calls: "c.status != 'trace'",
  ok: "c.status = 'ok'",
  error: "c.status = 'error'",
  trace: "c.status = 'trace'",
  all: null,
};

/** The filters of a call listing; all optional, all combined. */
export interface CallFilter {
  /** Which rows (default `calls`: protocol traces left out). */
  rows?: CallRows;
  /** Epoch ms: calls at or after. */
  since?: number;
  /** Epoch ms: calls before. */
  until?: number;
  surface?: Surface;
  outcome?: CallOutcome;
  /** An agent key (AGENT_KEY_SQL): `anonymous`, `crawler:GPTBot`, `buyer:<id>`, … */
  agent?: string;
  articleId?: string;
  /** Only calls that read an article. */
  readsOnly?: boolean;
}

/** Where a page starts: strictly older than this call. */
export interface CallCursor {
  at: number;
  id: number;
}

/** One listed call, with the article it read (null if none, or since deleted: `articleId` stays). */
export interface ListedCall {
  id: number;
  at: Date;
  surface: Surface;
  tool: string;
  userAgent: string;
  latencyMs: number;
  status: CallStatus;
  httpStatus: number | null;
  identity: string | null;
  requestId: string | null;
  articleId: string | null;
  article: { title: string; url: string } | null;
}

/** The SQL conditions and arguments of a filter (the publisher's and the trace rule included). */
function where(publisherId: string, f: CallFilter): { sql: string; args: InValue[] } {
  const rows = ROWS_SQL[f.rows ?? "calls"];
  const conds = ["c.publisher_id = ?", ...(rows ? [rows] : [])];
  const args: InValue[] = [publisherId];
  const add = (sql: string, ...values: InValue[]) => {
    conds.push(sql);
    args.push(...values);
  };
  if (f.since !== undefined) add("c.at >= ?", f.since);
  if (f.until !== undefined) add("c.at < ?", f.until);
  if (f.surface) add("c.surface = ?", f.surface);
  if (f.outcome) conds.push(`(${OUTCOME_SQL[f.outcome]})`);
  if (f.agent === "anonymous") {
    conds.push("(c.identity IS NULL OR c.identity LIKE 'ip:%' OR c.identity LIKE 'sess:%')");
  } else if (f.agent) add("c.identity = ?", f.agent);
  if (f.articleId) add("c.article_id = ?", f.articleId);
  if (f.readsOnly) conds.push("c.article_id IS NOT NULL");
  return { sql: conds.join(" AND "), args };
}

/**
 * The index hint of a listing: the calls' partial index (it holds no trace rows) when the rows
 * asked are calls; a listing that asks for traces reads the table as SQLite plans it (an
 * INDEXED BY that cannot be used is an error, not a slow plan).
 */
function indexFor(f: CallFilter): string {
  return (f.rows ?? "calls") === "calls" ? "INDEXED BY call_log_calls_by_time" : "";
}

/** One page of calls, newest first, strictly before `before` when given. */
export async function listCalls(
  db: Client,
  publisherId: string,
  filter: CallFilter,
  options: { limit: number; before?: CallCursor | null },
): Promise<ListedCall[]> {
  const w = where(publisherId, filter);
  const page = options.before ? " AND (c.at < ? OR (c.at = ? AND c.id < ?))" : "";
  const pageArgs = options.before ? [options.before.at, options.before.at, options.before.id] : [];
  const rs = await db.execute({
    sql: `SELECT c.*, a.title AS article_title, a.url AS article_url
          FROM call_log c ${indexFor(filter)}
          LEFT JOIN articles a ON a.id = c.article_id AND a.publisher_id = c.publisher_id
          WHERE ${w.sql}${page}
          ORDER BY c.at DESC, c.id DESC LIMIT ?`,
    args: [...w.args, ...pageArgs, options.limit],
  });
  return rs.rows.map((r) => ({
    ...callOf(r),
    id: Number(r.id),
    article: r.article_title === null
      ? null
      : { title: String(r.article_title), url: String(r.article_url) },
  }));
}

/** How many calls match a filter (the listing's total). */
export async function countCalls(
  db: Client,
  publisherId: string,
  filter: CallFilter,
): Promise<number> {
  const w = where(publisherId, filter);
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM call_log c ${indexFor(filter)} WHERE ${w.sql}`,
    args: w.args,
  });
  return Number(rs.rows[0].n);
}

/** The agent keys that called in a window, most calls first (the filter's choices). */
export async function callAgents(
  db: Client,
  publisherId: string,
  options: { since: number; limit: number },
): Promise<{ key: string; calls: number }[]> {
  const rs = await db.execute({
    sql: `SELECT ${AGENT_KEY_SQL} AS agent, COUNT(*) AS n FROM call_log
          INDEXED BY call_log_calls_by_time
          WHERE publisher_id = ? AND status != 'trace' AND at >= ?
          GROUP BY agent ORDER BY n DESC, agent LIMIT ?`,
    args: [publisherId, options.since, options.limit],
  });
  return rs.rows.map((r) => ({ key: String(r.agent), calls: Number(r.n) }));
}
