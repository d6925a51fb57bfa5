/** Persistence of ingestion jobs (table ingestion_jobs). Tenant queries take publisherId first. */
import type { InStatement } from "@libsql/client";
import { type Client, inWriteTx } from "./db.ts";
import { sharedTurn } from "./turns.ts";

export type JobKind = "drain" | "sync";
export type JobState = "queued" | "running" | "finished";
export type JobOutcome = "SUCCEEDED" | "FAILED" | "CANCELLED";
/**
 * "publisher": the publisher's URLs at large (POST /jobs, the daily sync), one active per kind;
 * "urls": the URLs assigned to the job when it was created (an upload, a retry).
 */
export type JobScope = "publisher" | "urls";

/** An ingestion job as stored; times are ISO 8601 UTC or null. */
export interface Job {
  id: string;
  publisherId: string;
  kind: JobKind;
  scope: JobScope;
  /** The upload the job was started for, if any. */
  sourceId: string | null;
  state: JobState;
  outcome: JobOutcome | null;
  discovered: number;
  ingested: number;
  unchanged: number;
  failed: number;
  /** URLs a cancellation released from the queue. */
  cancelled: number;
  /** Pages that answered 404 or 410, whose articles were unpublished. */
  unpublished: number;
  /** What a site's sync found before fetching pages (JSON); null until it has looked. */
  discovery: unknown;
  /** Failure counts by reason category, e.g. {"HTTP 404": 3}. */
  reasons: Record<string, number>;
  reason: string | null;
  runner: string | null;
  resumes: number;
  heartbeatAt: string | null;
  createdAt: string;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const COLUMNS =
  "id, publisher_id, kind, scope, source_id, state, outcome, discovered, ingested, unchanged, failed, cancelled, unpublished, discovery, reasons, reason, runner, resumes, heartbeat_at, created_at, queued_at, started_at, finished_at";

/**
 * A queued URL belongs to no active job: never assigned, or its job finished (a job that timed
 * out leaves its remaining URLs queued). Over `source_urls`, unaliased.
 */
export const UNOWNED_SQL = `(job_id IS NULL OR NOT EXISTS (SELECT 1 FROM ingestion_jobs j
  WHERE j.id = source_urls.job_id AND j.state != 'finished'))`;

/** The statement that queues a drain owning a set of URLs (an upload's, a retry's). */
export function insertUrlsJob(
  publisherId: string,
  input: { id: string; sourceId: string | null; discovered: number; now: Date },
): InStatement {
  const now = input.now.getTime();
  return {
    sql: `INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, source_id, state, discovered,
            created_at, queued_at) VALUES (?, ?, 'drain', 'urls', ?, 'queued', ?, ?, ?)`,
    args: [input.id, publisherId, input.sourceId, input.discovered, now, now],
  };
}

/**
 * Queues a publisher-wide job unless one of the same kind is already queued or running for the
 * publisher, in which case that one is returned (a unique partial index makes this hold across
 * processes). A new drain takes over every queued URL no active job owns.
 */
export async function createJob(
  db: Client,
  publisherId: string,
  input: { id: string; kind: JobKind; now: Date },
): Promise<{ job: Job; created: boolean }> {
  const now = input.now.getTime();
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, state, created_at, queued_at)
            VALUES (?, ?, ?, 'publisher', 'queued', ?, ?) ON CONFLICT DO NOTHING`,
      args: [input.id, publisherId, input.kind, now, now],
    });
    const created = rs.rowsAffected > 0;
    if (created && input.kind === "drain") {
      const adopted = await tx.execute({
        sql: `UPDATE source_urls SET job_id = ?
              WHERE publisher_id = ? AND state = 'queued' AND ${UNOWNED_SQL}`,
        args: [input.id, publisherId],
      });
      await tx.execute({
        sql: "UPDATE ingestion_jobs SET discovered = ? WHERE id = ?",
        args: [adopted.rowsAffected, input.id],
      });
    }
    const found = await tx.execute({
      sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ? AND kind = ?
            AND (id = ? OR (state != 'finished' AND scope = 'publisher'))
            ORDER BY (id = ?) DESC LIMIT 1`,
      args: [publisherId, input.kind, input.id, input.id],
    });
    return { job: toJob(found.rows[0]), created };
  });
}

/** One of a publisher's jobs. */
export async function getJob(db: Client, publisherId: string, id: string): Promise<Job | null> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ? AND id = ?`,
    args: [publisherId, id],
  });
  return rs.rows[0] ? toJob(rs.rows[0]) : null;
}

/** A publisher's most recent jobs. */
export async function listJobs(
  db: Client,
  publisherId: string,
  opts: { limit: number },
): Promise<Job[]> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ?
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [publisherId, opts.limit],
  });
  return rs.rows.map(toJob);
}

/** The jobs started for an upload, newest first. */
export async function jobsOfSource(
  db: Client,
  publisherId: string,
  sourceId: string,
  opts: { active?: boolean } = {},
): Promise<Job[]> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ? AND source_id = ?
          ${opts.active ? "AND state != 'finished'" : ""} ORDER BY created_at DESC, id DESC`,
    args: [publisherId, sourceId],
  });
  return rs.rows.map(toJob);
}

/** The newest job of each of a publisher's uploads, by source id. */
export async function latestJobBySource(
  db: Client,
  publisherId: string,
): Promise<Map<string, string>> {
  const rs = await db.execute({
    sql:
      `SELECT source_id, id FROM ingestion_jobs j WHERE publisher_id = ? AND source_id IS NOT NULL
          AND id = (SELECT id FROM ingestion_jobs k WHERE k.publisher_id = j.publisher_id
                    AND k.source_id = j.source_id ORDER BY created_at DESC, id DESC LIMIT 1)`,
    args: [publisherId],
  });
  return new Map(rs.rows.map((r) => [String(r.source_id), String(r.id)]));
}

/**
 * Atomically takes the queued job (any publisher) that has waited longest for its turn, for
 * `runner`; null when none.
 */
export async function claimJob(
  db: Client,
  runner: string,
  opts: { now: Date },
): Promise<Job | null> {
  const now = opts.now.getTime();
  // The state check in the UPDATE makes two runners racing for one row safe: one wins.
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET state = 'running', runner = ?, heartbeat_at = ?,
            started_at = COALESCE(started_at, ?)
          WHERE id = (SELECT id FROM ingestion_jobs WHERE state = 'queued'
                      ORDER BY queued_at, created_at, id LIMIT 1) AND state = 'queued'
          RETURNING ${COLUMNS}`,
    args: [runner, now, now],
  });
  return rs.rows[0] ? toJob(rs.rows[0]) : null;
}

/** How many jobs wait for a turn (any publisher). */
export async function waitingJobs(db: Client): Promise<number> {
  const rs = await db.execute(
    "SELECT COUNT(*) AS n FROM ingestion_jobs WHERE state = 'queued'",
  );
  return Number(rs.rows[0].n);
}

/** Writes the heartbeat (and the discovered count); false if the job is no longer this runner's. */
export async function heartbeatJob(
  db: Client,
  id: string,
  input: { runner: string; discovered?: number; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET heartbeat_at = ?, discovered = COALESCE(?, discovered)
          WHERE id = ? AND runner = ? AND state = 'running'`,
    args: [input.now.getTime(), input.discovered ?? null, id, input.runner],
  });
  return rs.rowsAffected > 0;
}

/**
 * Finishes a job with its outcome and reason (the counts are written as each URL is recorded).
 * `discovered`, when given, is the final count of URLs the job found.
 */
export async function finishJob(
  db: Client,
  id: string,
  input: {
    runner: string | null;
    outcome: Exclude<JobOutcome, "CANCELLED">;
    reason: string | null;
    discovered?: number;
    now: Date;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET state = 'finished', outcome = ?, reason = ?, finished_at = ?,
            heartbeat_at = ?, discovered = COALESCE(?, discovered)
          WHERE id = ? AND state != 'finished' AND (? IS NULL OR runner = ?)`,
    args: [
      input.outcome,
      input.reason,
      input.now.getTime(),
      input.now.getTime(),
      input.discovered ?? null,
      id,
      input.runner,
      input.runner,
    ],
  });
  return rs.rowsAffected > 0;
}

/**
 * Cancels a queued or running job: it is finished as CANCELLED with `reason`, and the URLs it
 * still had queued become "cancelled" with `urlReason`. Null when the job does not exist; the
 * job as it is (with `released: null`) when it had already finished.
 *
 * The job is finished and its queued URLs counted in one transaction; they are released after
 * it, RELEASE_BATCH at a time with the event loop's turn between (issue 39: one UPDATE of a
 * 50,000-URL sitemap's rows held the serving thread 1.4 s). `onFinished` runs once the job is
 * finished, before the release (the caller stops the job's run there). A queued URL of a
 * cancelled job is no job's (UNOWNED_SQL) and recordUrl leaves it alone, so the batches race
 * nothing; a crash between them leaves the rest to releaseCancelledUrls at the next recovery.
 */
export async function cancelJob(
  db: Client,
  publisherId: string,
  id: string,
  input: { reason: string; urlReason: string; now: Date; onFinished?: () => void },
): Promise<{ job: Job; released: number | null } | null> {
  const now = input.now.getTime();
  const out = await inWriteTx(db, async (tx) => {
    const done = await tx.execute({
      sql: `UPDATE ingestion_jobs SET state = 'finished', outcome = 'CANCELLED', reason = ?,
              finished_at = ?, heartbeat_at = ?
            WHERE publisher_id = ? AND id = ? AND state != 'finished'`,
      args: [input.reason, now, now, publisherId, id],
    });
    let released: number | null = null;
    if (done.rowsAffected > 0) {
      const queued = await tx.execute({
        sql: `SELECT COUNT(*) AS n FROM source_urls
              WHERE publisher_id = ? AND job_id = ? AND state = 'queued'`,
        args: [publisherId, id],
      });
      released = Number(queued.rows[0].n);
      await tx.execute({
        sql: "UPDATE ingestion_jobs SET cancelled = ? WHERE id = ?",
        args: [released, id],
      });
    }
    const rs = await tx.execute({
      sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ? AND id = ?`,
      args: [publisherId, id],
    });
    return rs.rows[0] ? { job: toJob(rs.rows[0]), released } : null;
  });
  if (out?.released !== null && out?.released !== undefined) input.onFinished?.();
  if (out?.released) await releaseQueued(db, id, input.urlReason);
  return out;
}

/** URLs a cancellation releases per transaction (a few milliseconds of the serving thread). */
const RELEASE_BATCH = 500;

/** Marks a finished job's queued URLs "cancelled", a batch per transaction. */
async function releaseQueued(db: Client, jobId: string, urlReason: string): Promise<number> {
  let released = 0;
  for (;;) {
    const rs = await inWriteTx(db, (tx) =>
      tx.execute({
        sql: `UPDATE source_urls SET state = 'cancelled', reason = ?
              WHERE rowid IN (SELECT rowid FROM source_urls WHERE job_id = ? AND state = 'queued'
                LIMIT ${RELEASE_BATCH})
              AND EXISTS (SELECT 1 FROM ingestion_jobs WHERE id = ? AND state = 'finished')`,
        args: [urlReason, jobId, jobId],
      }));
    released += rs.rowsAffected;
    if (rs.rowsAffected < RELEASE_BATCH) return released;
    await sharedTurn();
  }
}

/**
 * Finishes releases a crash interrupted: the queued URLs of cancelled jobs (cancelJob). Returns
 * how many it released.
 */
export async function releaseCancelledUrls(db: Client): Promise<number> {
  const rs = await db.execute(
    `SELECT j.id, j.reason FROM ingestion_jobs j WHERE j.outcome = 'CANCELLED'
       AND EXISTS (SELECT 1 FROM source_urls s WHERE s.job_id = j.id AND s.state = 'queued')`,
  );
  let released = 0;
  for (const r of rs.rows) {
    const id = String(r.id);
    released += await releaseQueued(db, id, cancelledUrlReason(id, String(r.reason ?? "")));
  }
  return released;
}

/** What a URL a cancellation released says about it. */
export function cancelledUrlReason(jobId: string, reason: string): string {
  return `Not fetched: job ${jobId} was cancelled (${reason})`;
}

/**
 * Hands a running job back to the queue; false if it is no longer this runner's. `requeueAt`
 * puts it at the end of the queue (its turn is over); without it, it keeps its place (shutdown).
 */
export async function releaseJob(
  db: Client,
  id: string,
  input: { runner: string; requeueAt?: Date },
): Promise<boolean> {
  const rs = await db.execute({
    // Behind every job queued so far, even those queued in the same millisecond.
    sql: `UPDATE ingestion_jobs SET state = 'queued', runner = NULL,
            queued_at = CASE WHEN ? IS NULL THEN queued_at ELSE MAX(?, (SELECT MAX(queued_at) + 1
              FROM ingestion_jobs WHERE state != 'finished')) END
          WHERE id = ? AND runner = ? AND state = 'running'`,
    args: [
      input.requeueAt?.getTime() ?? null,
      input.requeueAt?.getTime() ?? null,
      id,
      input.runner,
    ],
  });
  return rs.rowsAffected > 0;
}

/** Jobs left running whose heartbeat is older than `staleBefore` (their runner died). */
export async function staleJobs(db: Client, opts: { staleBefore: Date }): Promise<Job[]> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM ingestion_jobs
          WHERE state = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < ?)`,
    args: [opts.staleBefore.getTime()],
  });
  return rs.rows.map(toJob);
}

/** Puts a stale running job back in the queue, counting the resume; false if it moved on. */
export async function requeueJob(
  db: Client,
  id: string,
  opts: { heartbeatAt: string | null },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET state = 'queued', runner = NULL, resumes = resumes + 1
          WHERE id = ? AND state = 'running' AND heartbeat_at IS ?`,
    args: [id, opts.heartbeatAt === null ? null : Date.parse(opts.heartbeatAt)],
  });
  return rs.rowsAffected > 0;
}

// deno-lint-ignore no-explicit-any
function toJob(r: any): Job {
  const iso = (v: unknown) =>
    v === null || v === undefined ? null : new Date(Number(v)).toISOString();
  return {
    id: String(r.id),
    publisherId: String(r.publisher_id),
    kind: String(r.kind) as JobKind,
    scope: String(r.scope ?? "publisher") as JobScope,
    sourceId: r.source_id === null || r.source_id === undefined ? null : String(r.source_id),
    state: String(r.state) as JobState,
    outcome: r.outcome === null ? null : String(r.outcome) as JobOutcome,
    discovered: Number(r.discovered),
    ingested: Number(r.ingested),
    unchanged: Number(r.unchanged),
    failed: Number(r.failed),
    cancelled: Number(r.cancelled ?? 0),
    unpublished: Number(r.unpublished ?? 0),
    discovery: r.discovery === null || r.discovery === undefined
      ? null
      : JSON.parse(String(r.discovery)),
    reasons: JSON.parse(String(r.reasons ?? "{}")),
    reason: r.reason === null ? null : String(r.reason),
    runner: r.runner === null ? null : String(r.runner),
    resumes: Number(r.resumes ?? 0),
    heartbeatAt: iso(r.heartbeat_at),
    createdAt: iso(r.created_at)!,
    queuedAt: iso(r.queued_at ?? r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}
