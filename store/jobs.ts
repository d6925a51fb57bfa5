/** Persistence of ingestion jobs (table ingestion_jobs). Tenant queries take publisherId first. */
import type { Client } from "./db.ts";

export type JobKind = "drain" | "sync";
export type JobState = "queued" | "running" | "finished";
export type JobOutcome = "SUCCEEDED" | "FAILED";

/** An ingestion job as stored; times are ISO 8601 UTC or null. */
export interface Job {
  id: string;
  publisherId: string;
  kind: JobKind;
  state: JobState;
  outcome: JobOutcome | null;
  discovered: number;
  ingested: number;
  unchanged: number;
  failed: number;
  /** Failure counts by reason category, e.g. {"HTTP 404": 3}. */
  reasons: Record<string, number>;
  reason: string | null;
  runner: string | null;
  resumes: number;
  heartbeatAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Running counts a job writes with each heartbeat. */
export interface JobProgress {
  discovered: number;
  ingested: number;
  unchanged: number;
  failed: number;
  reasons: Record<string, number>;
}

const COLUMNS =
  "id, publisher_id, kind, state, outcome, discovered, ingested, unchanged, failed, reasons, reason, runner, resumes, heartbeat_at, created_at, started_at, finished_at";

/**
 * Queues a job unless one of the same kind is already queued or running for the publisher, in
 * which case that one is returned (a unique partial index makes this hold across processes).
 */
export async function createJob(
  db: Client,
  publisherId: string,
  input: { id: string; kind: JobKind; now: Date },
): Promise<{ job: Job; created: boolean }> {
  const rs = await db.execute({
    sql: `INSERT INTO ingestion_jobs (id, publisher_id, kind, state, created_at)
          VALUES (?, ?, ?, 'queued', ?) ON CONFLICT DO NOTHING`,
    args: [input.id, publisherId, input.kind, input.now.getTime()],
  });
  const found = await db.execute({
    sql: `SELECT ${COLUMNS} FROM ingestion_jobs WHERE publisher_id = ? AND kind = ?
          AND (id = ? OR state != 'finished') ORDER BY (id = ?) DESC LIMIT 1`,
    args: [publisherId, input.kind, input.id, input.id],
  });
  return { job: toJob(found.rows[0]), created: rs.rowsAffected > 0 };
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

/** Atomically takes the oldest queued job (any publisher) for `runner`; null when none. */
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
                      ORDER BY created_at, id LIMIT 1) AND state = 'queued'
          RETURNING ${COLUMNS}`,
    args: [runner, now, now],
  });
  return rs.rows[0] ? toJob(rs.rows[0]) : null;
}

/** Writes progress and the heartbeat; false if the job is no longer this runner's. */
export async function heartbeatJob(
  db: Client,
  id: string,
  input: { runner: string; progress: JobProgress; now: Date },
): Promise<boolean> {
  const p = input.progress;
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET discovered = ?, ingested = ?, unchanged = ?, failed = ?,
            reasons = ?, heartbeat_at = ?
          WHERE id = ? AND runner = ? AND state = 'running'`,
    args: [
      p.discovered,
      p.ingested,
      p.unchanged,
      p.failed,
      JSON.stringify(p.reasons),
      input.now.getTime(),
      id,
      input.runner,
    ],
  });
  return rs.rowsAffected > 0;
}

/** Finishes a job with its outcome, final counts and reason. */
export async function finishJob(
  db: Client,
  id: string,
  input: {
    runner: string | null;
    outcome: JobOutcome;
    reason: string | null;
    progress?: JobProgress;
    now: Date;
  },
): Promise<boolean> {
  const p = input.progress;
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET state = 'finished', outcome = ?, reason = ?, finished_at = ?,
            heartbeat_at = ?,
            discovered = COALESCE(?, discovered), ingested = COALESCE(?, ingested),
            unchanged = COALESCE(?, unchanged), failed = COALESCE(?, failed),
            reasons = COALESCE(?, reasons)
          WHERE id = ? AND state != 'finished' AND (? IS NULL OR runner = ?)`,
    args: [
      input.outcome,
      input.reason,
      input.now.getTime(),
      input.now.getTime(),
      p?.discovered ?? null,
      p?.ingested ?? null,
      p?.unchanged ?? null,
      p?.failed ?? null,
      p ? JSON.stringify(p.reasons) : null,
      id,
      input.runner,
      input.runner,
    ],
  });
  return rs.rowsAffected > 0;
}

/** Hands a running job back to the queue (shutdown); false if it is no longer this runner's. */
export async function releaseJob(
  db: Client,
  id: string,
  input: { runner: string },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE ingestion_jobs SET state = 'queued', runner = NULL
          WHERE id = ? AND runner = ? AND state = 'running'`,
    args: [id, input.runner],
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
    state: String(r.state) as JobState,
    outcome: r.outcome === null ? null : String(r.outcome) as JobOutcome,
    discovered: Number(r.discovered),
    ingested: Number(r.ingested),
    unchanged: Number(r.unchanged),
    failed: Number(r.failed),
    reasons: JSON.parse(String(r.reasons ?? "{}")),
    reason: r.reason === null ? null : String(r.reason),
    runner: r.runner === null ? null : String(r.runner),
    resumes: Number(r.resumes ?? 0),
    heartbeatAt: iso(r.heartbeat_at),
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}
