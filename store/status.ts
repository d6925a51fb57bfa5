/**
 * Status figures in the store (docs/SPEC.md "Status endpoints"): hourly call counts and latency
 * sketches that the call-log writer adds to in the same batch as the call rows, and probe rounds.
 * What counts as a call, an error and a search is defined here, once; docs/OPERATIONS.md words it.
 */
import type { InStatement } from "@libsql/client";
import type { CallEntry } from "./call_log.ts";
import type { Client } from "./db.ts";
import { addToSketch, bucketOf, type Sketch } from "./latency_sketch.ts";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * A request counts once: MCP writes a `_method:` row per JSON-RPC message and, for tools/call, a
 * row named after the tool as well; the `_method:` row is the request, the tool row its detail.
 */
export function countsAsCall(e: Pick<CallEntry, "surface" | "tool">): boolean {
  return !(e.surface === "mcp" && !e.tool.startsWith("_method:"));
}

/**
 * An error is the service's fault: HTTP 5xx. Refusals and bad input (4xx, JSON-RPC errors in a
 * 200) are answers, not failures; an MCP tool that failed inside a 200 is logged as 500.
 */
export function isServerError(e: Pick<CallEntry, "httpStatus">): boolean {
  return (e.httpStatus ?? 0) >= 500;
}

/** Search latency is that of successful searches: REST search, and the MCP and A2A tool. */
export function isSearch(e: Pick<CallEntry, "surface" | "tool" | "status">): boolean {
  if (e.status !== "ok") return false;
  return e.surface === "rest"
    ? e.tool === "_rest:search_articles"
    : (e.surface === "mcp" || e.surface === "a2a") && e.tool === "search_articles";
}

/** The upserts that add a batch of call entries to the hourly figures. */
export function rollupStatements(entries: CallEntry[]): InStatement[] {
  const counts = new Map<string, { calls: number; errors: number }>();
  const sketches = new Map<string, Sketch>();
  const sketch = (hour: number, surface: string, kind: string) => {
    const key = `${hour}\t${surface}\t${kind}`;
    let s = sketches.get(key);
    if (!s) sketches.set(key, s = new Map());
    return s;
  };
  for (const e of entries) {
    const hour = Math.floor(e.at.getTime() / HOUR_MS) * HOUR_MS;
    const key = `${hour}\t${e.surface}`;
    const c = counts.get(key) ?? { calls: 0, errors: 0 };
    counts.set(key, c);
    if (countsAsCall(e)) {
      c.calls++;
      addToSketch(sketch(hour, e.surface, "all"), bucketOf(e.latencyMs));
    }
    if (isServerError(e)) c.errors++;
    if (isSearch(e)) addToSketch(sketch(hour, e.surface, "search"), bucketOf(e.latencyMs));
  }
  const out: InStatement[] = [];
  for (const [key, c] of counts) {
    const [hour, surface] = key.split("\t");
    out.push({
      sql: `INSERT INTO status_hourly (hour, surface, calls, errors) VALUES (?, ?, ?, ?)
            ON CONFLICT (hour, surface) DO UPDATE
            SET calls = calls + excluded.calls, errors = errors + excluded.errors`,
      args: [Number(hour), surface, c.calls, c.errors],
    });
  }
  for (const [key, s] of sketches) {
    const [hour, surface, kind] = key.split("\t");
    for (const [bucket, count] of s) {
      out.push({
        sql: `INSERT INTO latency_hourly (hour, surface, kind, bucket, count) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (hour, surface, kind, bucket) DO UPDATE SET count = count + excluded.count`,
        args: [Number(hour), surface, kind, bucket, count],
      });
    }
  }
  return out;
}

/** Calls and errors per day and surface, for hours in [from, to). */
export async function dailyCalls(
  db: Client,
  range: { from: number; to: number },
): Promise<{ day: number; surface: string; calls: number; errors: number }[]> {
  const rs = await db.execute({
    sql: `SELECT (hour / ${DAY_MS}) * ${DAY_MS} AS day, surface, SUM(calls) AS calls,
            SUM(errors) AS errors
          FROM status_hourly WHERE hour >= ? AND hour < ? GROUP BY day, surface ORDER BY day`,
    args: [range.from, range.to],
  });
  return rs.rows.map((r) => ({
    day: Number(r.day),
    surface: String(r.surface),
    calls: Number(r.calls),
    errors: Number(r.errors),
  }));
}

/** Nearest-rank percentiles of one group of merged sketches, as bucket numbers. */
export interface PercentileBuckets {
  /** Start of the UTC day, or null when grouped over the whole range. */
  day: number | null;
  /** The surface, or null when all surfaces are merged. */
  surface: string | null;
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * Merges the sketches of one kind for hours in [from, to), per day or over the whole range, per
 * surface or all together, and finds the nearest-rank p50/p95/p99 buckets (docs/TEST-PLAN.md
 * section 6): the first bucket whose running count reaches p·N. The merge and the walk run inside
 * SQLite, so 90 days cost one scan and a few hundred result rows, not every bucket in JS.
 */
export async function latencyPercentiles(
  db: Client,
  range: { from: number; to: number },
  options: { kind: "all" | "search"; perDay: boolean; perSurface: boolean },
): Promise<PercentileBuckets[]> {
  const day = options.perDay ? `(hour / ${DAY_MS}) * ${DAY_MS}` : "NULL";
  const surface = options.perSurface ? "surface" : "NULL";
  const rs = await db.execute({
    sql: `WITH merged AS (
            SELECT ${day} AS d, ${surface} AS s, bucket, SUM(count) AS n FROM latency_hourly
            WHERE kind = ? AND hour >= ? AND hour < ? GROUP BY d, s, bucket
          ), running AS (
            SELECT d, s, bucket,
              SUM(n) OVER (PARTITION BY d, s ORDER BY bucket ROWS UNBOUNDED PRECEDING) AS cum,
              SUM(n) OVER (PARTITION BY d, s) AS total
            FROM merged
          )
          SELECT d, s, MAX(total) AS total,
            MIN(CASE WHEN cum * 100 >= total * 50 THEN bucket END) AS p50,
            MIN(CASE WHEN cum * 100 >= total * 95 THEN bucket END) AS p95,
            MIN(CASE WHEN cum * 100 >= total * 99 THEN bucket END) AS p99
          FROM running GROUP BY d, s ORDER BY d, s`,
    args: [options.kind, range.from, range.to],
  });
  return rs.rows.map((r) => ({
    day: r.d === null ? null : Number(r.d),
    surface: r.s === null ? null : String(r.s),
    count: Number(r.total),
    p50: Number(r.p50),
    p95: Number(r.p95),
    p99: Number(r.p99),
  }));
}

/** One check of a probe round. */
export interface ProbeCheck {
  surface: "health" | "rest" | "mcp" | "a2a";
  publisherId: string | null;
  ok: boolean;
  latencyMs: number;
  /** Why it failed, or what it saw. */
  detail: string | null;
  /** The health check's store round trip, as /api/health reported it. */
  dbLatencyMs?: number | null;
}

/** Records a round's checks; they share the round's time. */
export async function insertProbeRound(db: Client, at: Date, checks: ProbeCheck[]): Promise<void> {
  if (checks.length === 0) return;
  await db.batch(
    checks.map((c) => ({
      sql: `INSERT INTO probes (at, surface, publisher_id, ok, latency_ms, detail, db_latency_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)`,
      args: [
        at.getTime(),
        c.surface,
        c.publisherId,
        c.ok ? 1 : 0,
        Math.round(c.latencyMs * 100) / 100,
        c.detail?.slice(0, 500) ?? null,
        c.dbLatencyMs ?? null,
      ],
    })),
    "write",
  );
}

/** A round's outcome: when, how many checks, how many failed, and the first failure's detail. */
export interface ProbeRound {
  at: number;
  checks: number;
  failed: number;
  detail: string | null;
}

/** Every round since `from`, oldest first (90 days of 5-minute rounds is 25,920 rows). */
export async function probeRounds(db: Client, range: { from: number }): Promise<ProbeRound[]> {
  const rs = await db.execute({
    sql: `SELECT at, COUNT(*) AS checks, SUM(1 - ok) AS failed,
            MIN(CASE WHEN ok = 0 THEN surface || ': ' || COALESCE(detail, 'failed') END) AS detail
          FROM probes WHERE at >= ? GROUP BY at ORDER BY at`,
    args: [range.from],
  });
  return rs.rows.map((r) => ({
    at: Number(r.at),
    checks: Number(r.checks),
    failed: Number(r.failed),
    detail: r.detail === null ? null : String(r.detail),
  }));
}

/** When the last probe round before `at` ran, or null if none did (a new service). */
export async function lastProbeBefore(db: Client, at: number): Promise<number | null> {
  const rs = await db.execute({ sql: "SELECT MAX(at) AS at FROM probes WHERE at < ?", args: [at] });
  const last = rs.rows[0]?.at;
  return last === null || last === undefined ? null : Number(last);
}

/** Checks and ok checks per surface since `from`, and the median store latency of health checks. */
export async function probeTotals(db: Client, range: { from: number }): Promise<{
  bySurface: { surface: string; checks: number; ok: number }[];
  dbLatencyP50Ms: number | null;
}> {
  const [bySurface, health] = await db.batch([
    {
      sql: `SELECT surface, COUNT(*) AS checks, SUM(ok) AS ok FROM probes WHERE at >= ?
            GROUP BY surface`,
      args: [range.from],
    },
    {
      sql: `SELECT COUNT(*) AS n FROM probes
            WHERE at >= ? AND surface = 'health' AND db_latency_ms IS NOT NULL`,
      args: [range.from],
    },
  ], "read");
  const n = Number(health.rows[0].n);
  let dbLatencyP50Ms: number | null = null;
  if (n > 0) {
    // Exact nearest-rank median: one indexed walk over at most 25,920 rows.
    const rs = await db.execute({
      sql: `SELECT db_latency_ms FROM probes
            WHERE at >= ? AND surface = 'health' AND db_latency_ms IS NOT NULL
            ORDER BY db_latency_ms LIMIT 1 OFFSET ?`,
      args: [range.from, Math.ceil(n / 2) - 1],
    });
    dbLatencyP50Ms = Number(rs.rows[0].db_latency_ms);
  }
  return {
    bySurface: bySurface.rows.map((r) => ({
      surface: String(r.surface),
      checks: Number(r.checks),
      ok: Number(r.ok),
    })),
    dbLatencyP50Ms,
  };
}

/** Stores the hash of a probe round's token until `expiresAt`, and forgets expired ones. */
export async function issueProbeToken(db: Client, hash: string, expiresAt: Date, now: Date) {
  await db.batch([
    { sql: "DELETE FROM probe_tokens WHERE expires_at <= ?", args: [now.getTime()] },
    {
      sql: "INSERT INTO probe_tokens (hash, expires_at) VALUES (?, ?)",
      args: [hash, expiresAt.getTime()],
    },
  ], "write");
}

/** Whether `hash` is a live probe token. */
export async function probeTokenLive(db: Client, hash: string, now: Date): Promise<boolean> {
  const rs = await db.execute({
    sql: "SELECT 1 FROM probe_tokens WHERE hash = ? AND expires_at > ?",
    args: [hash, now.getTime()],
  });
  return rs.rows.length > 0;
}

/** Ends a round's token. */
export async function dropProbeToken(db: Client, hash: string): Promise<void> {
  await db.execute({ sql: "DELETE FROM probe_tokens WHERE hash = ?", args: [hash] });
}

/**
 * Folds the hourly rows of whole days before `cutoff` (a UTC midnight) into one row per day, kept
 * at the day's first hour, and drops figures and probes older than `keepFrom`. Days already folded
 * fold to themselves, so running it again changes nothing. Only the week before `cutoff` is
 * visited; older days were folded by earlier runs.
 */
export async function compactStatus(
  db: Client,
  range: { cutoff: number; keepFrom: number },
): Promise<{ latencyRows: number; callRows: number }> {
  const from = range.cutoff - 7 * DAY_MS;
  const tx = await db.transaction("write");
  try {
    const latency = await tx.execute({
      sql: `SELECT (hour / ${DAY_MS}) * ${DAY_MS} AS day, surface, kind, bucket, SUM(count) AS n
            FROM latency_hourly WHERE hour >= ? AND hour < ? GROUP BY day, surface, kind, bucket`,
      args: [from, range.cutoff],
    });
    const calls = await tx.execute({
      sql: `SELECT (hour / ${DAY_MS}) * ${DAY_MS} AS day, surface, SUM(calls) AS calls,
              SUM(errors) AS errors
            FROM status_hourly WHERE hour >= ? AND hour < ? GROUP BY day, surface`,
      args: [from, range.cutoff],
    });
    await tx.batch([
      {
        sql: "DELETE FROM latency_hourly WHERE hour >= ? AND hour < ?",
        args: [from, range.cutoff],
      },
      { sql: "DELETE FROM status_hourly WHERE hour >= ? AND hour < ?", args: [from, range.cutoff] },
      ...latency.rows.map((r) => ({
        sql:
          "INSERT INTO latency_hourly (hour, surface, kind, bucket, count) VALUES (?, ?, ?, ?, ?)",
        args: [r.day, r.surface, r.kind, r.bucket, r.n],
      })),
      ...calls.rows.map((r) => ({
        sql: "INSERT INTO status_hourly (hour, surface, calls, errors) VALUES (?, ?, ?, ?)",
        args: [r.day, r.surface, r.calls, r.errors],
      })),
      { sql: "DELETE FROM latency_hourly WHERE hour < ?", args: [range.keepFrom] },
      { sql: "DELETE FROM status_hourly WHERE hour < ?", args: [range.keepFrom] },
      { sql: "DELETE FROM probes WHERE at < ?", args: [range.keepFrom] },
    ]);
    await tx.commit();
    return { latencyRows: latency.rows.length, callRows: calls.rows.length };
  } finally {
    tx.close();
  }
}
