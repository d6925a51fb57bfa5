/** Persistence of the per-publisher call log (docs/SPEC.md "Events"). */
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
      ...multiRowInserts(
        "call_log",
        [
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
        ],
        entries.map((e) => [
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
        ]),
      ),
      ...rollupStatements(entries),
      ...intentInserts(intents),
    ],
    "write",
  );
}

/**
 * The publisher's most recent calls, newest first (the dashboard shows the last 100); with
 * `withoutTraces`, rows of status trace (protocol-level `_method:*` rows) are left out; with
 * `status`, only rows of that status.
 */
export async function recentCalls(
  db: Client,
  publisherId: string,
  options: { limit: number; withoutTraces?: boolean; status?: CallStatus },
): Promise<CallEntry[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM call_log WHERE publisher_id = ?${
      options.withoutTraces ? " AND status != 'trace'" : ""
    }${options.status ? " AND status = ?" : ""} ORDER BY id DESC LIMIT ?`,
    args: [publisherId, ...(options.status ? [options.status] : []), options.limit],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
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
  }));
}
