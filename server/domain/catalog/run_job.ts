/**
 * Running one ingestion job (docs/SPEC.md "Other records": kind drain|sync, counts, outcome, reason):
 * a bounded pool of URL workers, a heartbeat, a no-progress deadline, per-host failure memory,
 * and turns: after its slice a job hands its slot back when another job waits (issue 11), so a
 * huge or hopeless upload never holds up a later one. Each upload is its own job (rather than one
 * drain round-robining over uploads) so that cancel, retry, counts and the per-URL report each
 * mean one upload; taking turns gives the fairness across uploads and publishers alike.
 *
 * Counts: each URL's result and the job's counts are written in one transaction
 * (store/ingest_queue.ts), so GET /jobs/:id is live and a resumed job counts every URL once.
 *
 * Outcome: FAILED when the deadline passes with no progress, when the job itself breaks, or when
 * every URL it processed failed (the reason names the commonest failure); otherwise SUCCEEDED,
 * with a reason summarising any failures (a partial failure is visible but does not fail a job
 * that ingested something). robots.txt refusals count as failures with their own reason.
 */
import type { Span } from "@opentelemetry/api";
import { inSpan, meters } from "../../platform/telemetry.ts";
import {
  countPending,
  type JobWork,
  nextPending,
  ownsUrls,
  recordUrl,
  skipHost,
  stillPending,
} from "../../../store/ingest_queue.ts";
import { finishJob, getJob, heartbeatJob, type Job, waitingJobs } from "../../../store/jobs.ts";
import type { SourceUrl } from "../../../store/sources.ts";
import type { AppDeps } from "../../deps.ts";
import { type DeadHost, HostMemory, hostOf } from "./host_memory.ts";
import { ingestUrl, type UrlOutcome } from "./ingest_url.ts";
import { plural } from "../../platform/words.ts";
import { discoverForJob, discoveryNote } from "./site_sync.ts";

/** Tuning of job runs; every field has a production default. */
export interface RunOptions {
  /** URLs fetched at once per job (the fetcher also limits per host). */
  concurrency?: number;
  /** Per-page deadline passed to the fetcher; its own default when unset. */
  pageTimeoutMs?: number;
  /** A job with no URL finished for this long (by deps.clock) fails. */
  noProgressMs?: number;
  heartbeatMs?: number;
  /** A job that has run this long hands its slot back at the next URL when another job waits. */
  sliceMs?: number;
}

/** Thrown into a run's signal when the process stops: the job goes back to the queue. */
export const SHUTDOWN = "shutdown";
/** Thrown into a run's signal when the job is cancelled: the run stops, the job stays finished. */
export const CANCELLED = "cancelled";

/**
 * How a run ended. finished: the outcome is written; released: shutdown, back to the queue in its
 * place; yielded: its turn is over, back to the end of the queue; dropped: the job is no longer
 * this runner's (cancelled, or judged orphaned and taken over), so it is left alone.
 */
export type RunEnd = "finished" | "released" | "yielded" | "dropped";

type Opts = RunOptions & { runner: string; signal?: AbortSignal };

/** Runs a claimed job until it finishes, its turn ends, or it is stopped. */
export function runJob(deps: AppDeps, job: Job, opts: Opts): Promise<RunEnd> {
  const attributes = { "folio.job_id": job.id, "folio.job_kind": job.kind };
  return inSpan("folio.ingest.job", attributes, (span) => run(deps, job, opts, span));
}

async function run(deps: AppDeps, job: Job, opts: Opts, span: Span): Promise<RunEnd> {
  const concurrency = opts.concurrency ?? 4;
  const noProgressMs = opts.noProgressMs ?? 600_000;
  const sliceMs = opts.sliceMs ?? 30_000;
  const db = deps.store.db;
  const publisherId = job.publisherId;
  const work: JobWork = {
    id: job.id,
    kind: job.kind,
    scope: job.scope,
    startedAt: Date.parse(job.startedAt ?? job.createdAt),
  };
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([stop.signal, opts.signal]) : stop.signal;
  if (isSiteSync(job) && job.discovery === null) {
    const found = await discoverStep(deps, job, opts, signal);
    if (found === "stopped") return opts.signal?.reason === CANCELLED ? "dropped" : "released";
    if (found === "lost") return "dropped";
    if (found.failed) {
      await finishJob(db, job.id, {
        runner: opts.runner,
        outcome: "FAILED",
        reason: found.failed,
        discovered: 0,
        now: deps.clock.now(),
      });
      return "finished";
    }
    job = (await getJob(db, publisherId, job.id)) ?? job;
  }
  const doneAtStart = job.ingested + job.unchanged + job.failed + job.unpublished;
  let recorded = 0;
  let discovered = 0;
  let ended: "timeout" | "lost" | "yield" | null = null;
  const end = (why: NonNullable<typeof ended>) => {
    ended ??= why;
    stop.abort(why);
  };
  let lastProgress = deps.clock.now().getTime();
  // Counted when the heartbeat writes it, not on each refill: counting 50,000 queued URLs on every
  // refill of 64 was 8% of a large site's drain (issue 39).
  const beat = async () => {
    const pending = await countPending(db, publisherId, work).catch(() => null);
    if (pending !== null) discovered = doneAtStart + recorded + pending;
    const ok = await heartbeatJob(db, job.id, {
      runner: opts.runner,
      discovered,
      now: deps.clock.now(),
    }).catch(() => true);
    if (!ok) end("lost");
  };
  await beat(); // the discovered count is visible from the start
  const watchdog = setInterval(() => {
    if (deps.clock.now().getTime() - lastProgress > noProgressMs) end("timeout");
  }, Math.min(1000, noProgressMs));
  const heartbeat = setInterval(beat, opts.heartbeatMs ?? 5000);
  const hosts = new HostMemory();
  const turnStarted = performance.now();
  let turnCheckedAt = -Infinity;

  let queue: SourceUrl[] = [];
  const taken = new Set<string>();
  let exhausted = false;
  let refilling: Promise<void> | null = null;
  const refill = async () => {
    const rows = await nextPending(db, publisherId, work, {
      limit: concurrency * 16,
      exclude: [...taken],
    });
    if (rows.length === 0) exhausted = true;
    for (const r of rows) if (!taken.has(r.url)) queue.push(r);
    if (rows.length && queue.length === 0) exhausted = true;
  };
  const next = async (): Promise<SourceUrl | null> => {
    while (queue.length === 0 && !exhausted && !signal.aborted) {
      refilling ??= refill().finally(() => refilling = null);
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

  const giveUp = async (dead: DeadHost) => {
    deps.log.info("ingestion: host given up for this job", { jobId: job.id, host: dead.host });
    if (!ownsUrls(job)) return; // a publisher-wide sync fails them one by one as it meets them
    recorded += await skipHost(db, publisherId, work, {
      ...dead,
      exclude: [...taken],
      now: deps.clock.now(),
    });
    queue = queue.filter((r) => hostOf(r.url) !== dead.host);
  };

  const handOver = async () => {
    const now = performance.now();
    if (now - turnStarted < sliceMs || now - turnCheckedAt < Math.min(1000, sliceMs)) return;
    turnCheckedAt = now;
    if (await waitingJobs(db) > 0) end("yield");
  };

  const processRow = async (row: SourceUrl) => {
    const dead = hosts.dead(row.url);
    let outcome: UrlOutcome;
    if (dead) {
      outcome = { state: "failed", category: dead.category, reason: dead.reason };
    } else {
      // Removed, cancelled or done by another job since it was read: not this job's any more.
      if (!await stillPending(db, publisherId, row.url, work)) return;
      try {
        outcome = await ingestUrl(deps, publisherId, row, {
          conditional: job.kind === "sync",
          timeoutMs: opts.pageTimeoutMs,
          signal,
        });
      } catch (e) {
        if (signal.aborted) return; // the URL stays queued for the next run
        const reason = `Could not process the page: ${e instanceof Error ? e.message : e}`;
        deps.log.warn("ingestion: page failed unexpectedly", { url: row.url, error: String(e) });
        outcome = { state: "failed", category: "processing error", reason };
      }
    }
    const { refused: _, ...result } = outcome as UrlOutcome & { refused?: unknown };
    const r = await recordUrl(db, publisherId, row.url, work, result, { now: deps.clock.now() });
    if (r.recorded) {
      recorded++;
      lastProgress = deps.clock.now().getTime();
    }
    if (r.jobState !== "running" || r.runner !== opts.runner) return end("lost");
    const gaveUp = dead ? null : hosts.learn(row.url, outcome);
    if (gaveUp) await giveUp(gaveUp);
    await handOver();
  };

  const worker = async () => {
    for (let row = await next(); row && !signal.aborted; row = await next()) {
      try {
        await processRow(row);
      } finally {
        taken.delete(row.url);
      }
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
  if (ended === "lost") return "dropped"; // cancelled, or another runner owns it now
  if (opts.signal?.aborted && ended !== "timeout" && !crash) {
    return opts.signal.reason === CANCELLED ? "dropped" : "released";
  }
  if (ended === "yield" && !crash) return "yielded";
  const now = (await getJob(db, publisherId, job.id)) ?? job;
  const finalCounts = !crash && ended !== "timeout";
  const judged = verdict(now, { timedOut: ended === "timeout", noProgressMs, crash });
  const { outcome } = judged;
  const reason = [judged.reason, discoveryNote(now.discovery)].filter(Boolean).join("; ") || null;
  if (crash) deps.log.error("ingestion: job crashed", { jobId: job.id, error: String(crash) });
  span.setAttributes({ "folio.job_outcome": outcome, "folio.urls_failed": now.failed });
  for (const result of ["ingested", "unchanged", "failed"] as const) {
    const n = now[result] - job[result];
    if (n > 0) meters.ingestedUrls.add(n, { result });
  }
  await finishJob(db, job.id, {
    runner: opts.runner,
    outcome,
    reason,
    // Finished normally: what it found is what it did (URLs removed meanwhile are not counted).
    discovered: finalCounts
      ? now.ingested + now.unchanged + now.failed + now.unpublished
      : undefined,
    now: deps.clock.now(),
  });
  return "finished";
}

/** A site's sync: it discovers its work before it fetches (server/domain/catalog/site_sync.ts). */
function isSiteSync(job: Job): boolean {
  return job.kind === "sync" && job.scope === "urls" && job.sourceId !== null;
}

/** Discovery under the job's heartbeat: "stopped" (shutdown, cancel) or "lost" end the run. */
async function discoverStep(
  deps: AppDeps,
  job: Job,
  opts: Opts,
  signal: AbortSignal,
): Promise<{ failed: string | null } | "stopped" | "lost"> {
  let lost = false;
  const beat = async () => {
    const ok = await heartbeatJob(deps.store.db, job.id, {
      runner: opts.runner,
      now: deps.clock.now(),
    }).catch(() => true);
    if (!ok) lost = true;
  };
  const heartbeat = setInterval(beat, opts.heartbeatMs ?? 5000);
  try {
    const found = await discoverForJob(deps, job, { signal, onDocument: beat });
    if (lost) return "lost";
    if (signal.aborted) return "stopped";
    return found;
  } catch (e) {
    if (signal.aborted) return "stopped";
    throw e;
  } finally {
    clearInterval(heartbeat);
  }
}

function verdict(
  p: Pick<Job, "ingested" | "unchanged" | "failed" | "unpublished" | "reasons">,
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
  const processed = p.ingested + p.unchanged + p.failed + p.unpublished;
  const top = Object.entries(p.reasons).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  const commonest = top ? `commonest reason: ${top[0]} (${top[1]})` : "";
  if (processed > 0 && p.failed === processed) {
    return {
      outcome: "FAILED",
      reason: `All ${plural(processed, "URL")} failed; ${commonest}`,
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
