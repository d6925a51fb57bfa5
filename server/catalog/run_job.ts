/**
 * Running one ingestion job (docs/SPEC.md "Other records": kind drain|sync, counts, outcome, reason):
 * a bounded pool of URL workers, a heartbeat with the counts, and a no-progress deadline.
 *
 * Outcome: FAILED when the deadline passes with no progress, when the job itself breaks, or when
 * every URL it processed failed (the reason names the commonest failure); otherwise SUCCEEDED,
 * with a reason summarising any failures (a partial failure is visible but does not fail a job
 * that ingested something). robots.txt refusals count as failures with their own reason.
 */
import type { Span } from "@opentelemetry/api";
import { inSpan, meters } from "../telemetry.ts";
import { countPending, markUrl, nextPending, type SourceUrl } from "../../store/sources.ts";
import { finishJob, heartbeatJob, type Job, type JobProgress } from "../../store/jobs.ts";
import type { AppDeps } from "../deps.ts";
import { ingestUrl, type UrlOutcome } from "./ingest_url.ts";

/** Tuning of job runs; every field has a production default. */
export interface RunOptions {
  /** URLs fetched at once per job (the fetcher also limits per host). */
  concurrency?: number;
  /** Per-page deadline passed to the fetcher; its own default when unset. */
  pageTimeoutMs?: number;
  /** A job with no URL finished for this long (by deps.clock) fails. */
  noProgressMs?: number;
  heartbeatMs?: number;
}

/** Thrown into a run's signal when the process stops: the job goes back to the queue. */
export const SHUTDOWN = "shutdown";

/** Runs a claimed job to the end; returns false when it was handed back (shutdown). */
export function runJob(
  deps: AppDeps,
  job: Job,
  opts: RunOptions & { runner: string; signal?: AbortSignal },
): Promise<boolean> {
  const attributes = { "folio.job_id": job.id, "folio.job_kind": job.kind };
  return inSpan("folio.ingest.job", attributes, (span) => run(deps, job, opts, span));
}

async function run(
  deps: AppDeps,
  job: Job,
  opts: RunOptions & { runner: string; signal?: AbortSignal },
  span: Span,
): Promise<boolean> {
  const concurrency = opts.concurrency ?? 4;
  const noProgressMs = opts.noProgressMs ?? 600_000;
  const db = deps.store.db;
  const progress: JobProgress = {
    discovered: job.discovered,
    ingested: job.ingested,
    unchanged: job.unchanged,
    failed: job.failed,
    reasons: { ...job.reasons },
  };
  const before = Date.parse(job.startedAt ?? job.createdAt);
  const kind = job.kind;
  const done = () => progress.ingested + progress.unchanged + progress.failed;
  progress.discovered = done() + await countPending(db, job.publisherId, { kind, before });
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([stop.signal, opts.signal]) : stop.signal;
  let lastProgress = deps.clock.now().getTime();
  let timedOut = false;
  let lost = false;
  const beat = async () => {
    const ok = await heartbeatJob(db, job.id, {
      runner: opts.runner,
      progress,
      now: deps.clock.now(),
    }).catch(() => true);
    if (!ok) (lost = true), stop.abort("lost");
  };
  const watchdog = setInterval(() => {
    if (deps.clock.now().getTime() - lastProgress > noProgressMs) {
      timedOut = true;
      stop.abort("timeout");
    }
  }, Math.min(1000, noProgressMs));
  const heartbeat = setInterval(beat, opts.heartbeatMs ?? 5000);

  const queue: SourceUrl[] = [];
  const taken = new Set<string>();
  let exhausted = false;
  let refilling: Promise<void> | null = null;
  const next = async (): Promise<SourceUrl | null> => {
    while (queue.length === 0 && !exhausted && !signal.aborted) {
      refilling ??= nextPending(db, job.publisherId, {
        kind,
        before,
        limit: concurrency * 16,
        exclude: [...taken],
      }).then((rows) => {
        if (rows.length === 0) exhausted = true;
        for (const r of rows) if (!taken.has(r.url)) queue.push(r);
        if (rows.length && queue.length === 0) exhausted = true;
      }).finally(() => refilling = null);
      await refilling;
    }
    // Prefer a URL whose host has nothing in flight: the fetcher spaces requests per host, so a
    // worker waiting on a busy host would idle while another site could be fetched.
    const busy = new Set([...taken].map(hostOf));
    const i = Math.max(0, queue.findIndex((r) => !busy.has(hostOf(r.url))));
    const row = queue.splice(i, 1)[0] ?? null;
    if (row) taken.add(row.url);
    return row;
  };
  const worker = async () => {
    for (let row = await next(); row && !signal.aborted; row = await next()) {
      let outcome: UrlOutcome;
      try {
        outcome = await ingestUrl(deps, job.publisherId, row, {
          conditional: kind === "sync",
          timeoutMs: opts.pageTimeoutMs,
          signal,
        });
      } catch (e) {
        if (signal.aborted) break; // the URL stays queued for the next run
        const reason = `Could not process the page: ${e instanceof Error ? e.message : e}`;
        deps.log.warn("ingestion: page failed unexpectedly", { url: row.url, error: String(e) });
        await markUrl(db, job.publisherId, row.url, {
          state: "failed",
          reason,
          now: deps.clock.now(),
        });
        outcome = { state: "failed", category: "processing error", reason };
      } finally {
        taken.delete(row.url);
      }
      if (outcome.state === "ingested") progress.ingested++;
      else if (outcome.state === "unchanged") progress.unchanged++;
      else if (outcome.state === "failed" || outcome.state === "blocked") {
        progress.failed++;
        progress.reasons[outcome.category] = (progress.reasons[outcome.category] ?? 0) + 1;
      }
      progress.discovered = Math.max(progress.discovered, done() + queue.length + taken.size);
      lastProgress = deps.clock.now().getTime();
    }
  };
  let crash: unknown = null;
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } catch (e) {
    crash = e;
  } finally {
    clearInterval(watchdog);
    clearInterval(heartbeat);
  }
  if (lost) return true; // another runner owns it now (it was judged stale); leave it alone
  if (opts.signal?.aborted && !timedOut && !crash) return false;
  if (!crash && !timedOut) {
    // URLs queued during the run are counted by the next run, not this one.
    progress.discovered = done();
  }
  const { outcome, reason } = verdict(progress, {
    timedOut,
    noProgressMs,
    crash,
  });
  if (crash) deps.log.error("ingestion: job crashed", { jobId: job.id, error: String(crash) });
  span.setAttributes({ "folio.job_outcome": outcome, "folio.urls_failed": progress.failed });
  for (const result of ["ingested", "unchanged", "failed"] as const) {
    const n = progress[result] - job[result];
    if (n > 0) meters.ingestedUrls.add(n, { result });
  }
  await finishJob(db, job.id, {
    runner: opts.runner,
    outcome,
    reason,
    progress,
    now: deps.clock.now(),
  });
  return true;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function verdict(
  p: JobProgress,
  o: { timedOut: boolean; noProgressMs: number; crash: unknown },
): { outcome: "SUCCEEDED" | "FAILED"; reason: string | null } {
  if (o.timedOut) {
    return {
      outcome: "FAILED",
      reason: `Timed out after ${Math.round(o.noProgressMs / 1000)} s with no progress`,
    };
  }
  if (o.crash) {
    return { outcome: "FAILED", reason: "The job stopped on an internal error; see the log" };
  }
  const processed = p.ingested + p.unchanged + p.failed;
  const top = Object.entries(p.reasons).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  const commonest = top ? `commonest reason: ${top[0]} (${top[1]})` : "";
  if (processed > 0 && p.failed === processed) {
    return {
      outcome: "FAILED",
      reason: `All ${processed} URL${processed === 1 ? "" : "s"} failed; ${commonest}`,
    };
  }
  if (p.failed > 0) {
    return {
      outcome: "SUCCEEDED",
      reason: `${p.failed} of ${processed} URLs failed; ${commonest}`,
    };
  }
  return { outcome: "SUCCEEDED", reason: null };
}
