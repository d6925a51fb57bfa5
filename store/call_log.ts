/** Persistence of the per-publisher call log (docs/SPEC.md "Events"). */
import type { InValue, Row } from "@libsql/client";
import type { Client } from "./db.ts";
import { type IntentEntry, intentInserts } from "./intents.ts";
import { rollupStatements } from "./status.ts";
import { multiRowInserts } from "./multi_row.ts";
import type { CallStatus, Surface } from "./vocabulary.ts";

/** One logged call. `tool` is a tool name or `_method:`, `_rest:`, `_dash:`, `_nlweb:` name. */
export interface CallEntry {
  publisherId: string | null;
  at: Date;
  surface: Surface;
  tool: string;
  userAgent: string;
  latencyMs: number;
  status: CallStatus;
  httpStatus?: number | null;
  identity?: string | null;
  requestId?: string | null;
  /** The article the call read (the first, if it read several). */
  articleId?: string | null;
}

/** The columns a call is written with, and one entry as their values (`callValues()`). */
export const CALL_COLUMNS = [
  "publisher_id",
  "at",
  "surface",
  "tool",
  "user_agent",
  "latency_ms",
  "status",
  "http_status",
  "identity",
  "request_id",
  "article_id",
];

/** One entry as the values of `CALL_COLUMNS`. */
export function callValues(e: CallEntry): InValue[] {
  return [
    e.publisherId,
    e.at.getTime(),
    e.surface,
    e.tool,
    e.userAgent.slice(0, 512),
    Math.round(e.latencyMs * 100) / 100,
    e.status,
    e.httpStatus ?? null,
    e.identity ?? null,
    e.requestId ?? null,
    e.articleId ?? null,
  ];
}

/** A call_log row as an entry (a row read with any extra columns beside). */
export function callOf(r: Row): Required<CallEntry> {
  return {
    publisherId: r.publisher_id === null ? null : String(r.publisher_id),
    at: new Date(Number(r.at)),
    surface: String(r.surface) as Surface,
    tool: String(r.tool),
    userAgent: String(r.user_agent),
    latencyMs: Number(r.latency_ms),
    status: String(r.status) as CallStatus,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    identity: r.identity === null ? null : String(r.identity),
    requestId: r.request_id === null ? null : String(r.request_id),
    articleId: r.article_id === null || r.article_id === undefined ? null : String(r.article_id),
  };
}

/**
 * Writes a batch of entries, adds them to the hourly status figures, and records the reader
 * intents that came with them, in one transaction.
 */
export async function insertCalls(
  db: Client,
  entries: CallEntry[],
  intents: IntentEntry[] = [],
): Promise<void> {
  if (entries.length === 0 && intents.length === 0) return;
  await db.batch(
    [
      ...multiRowInserts("call_log", CALL_COLUMNS, entries.map(callValues)),
      ...rollupStatements(entries),
      ...intentInserts(intents),
    ],
    "write",
  );
}

/** The publisher's most recent calls, traces included, newest first (the paged listing is call_list.ts). */
export async function recentCalls(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<CallEntry[]> {
  const rs = await db.execute({
    sql: "SELECT * FROM call_log WHERE publisher_id = ? ORDER BY id DESC LIMIT ?",
    args: [publisherId, options.limit],
  });
  return rs.rows.map(callOf);
}
