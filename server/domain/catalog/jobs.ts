/**
 * Ingestion jobs in a bounded worker pool inside the process (docs/DESIGN.md section 8). Jobs live in
 * the store, so any node may run any job; a job whose runner died (stale heartbeat) is resumed,
 * and one that keeps dying is failed with a reason: never stuck "running". Slots are taken in
 * turns (run_job.ts): a job whose slice is over goes to the back of the queue when others wait.
 */
import {
  claimJob,
  createJob,
  finishJob,
  type Job,
  type JobKind,
  releaseCancelledUrls,
  releaseJob,
  requeueJob,
  staleJobs,
} from "../../../store/jobs.ts";
import { newId } from "../../../store/ids.ts";
import { publishersWithUrls } from "../../../store/sources.ts";
import { withLease } from "../../../store/leases.ts";
import type { AppDeps } from "../../deps.ts";
import { CANCELLED, runJob, type RunOptions, SHUTDOWN } from "./run_job.ts";
import { plural } from "../../platform/words.ts";

/** Tuning of the worker; every field has a production default. */
export interface WorkerOptions extends RunOptions {
  /** Jobs run at once by this process. */
  maxJobs?: number;
  /** How often the queue is polled when nothing wakes the worker. */
  pollMs?: number;
  /** A running job whose heartbeat is older than this is considered orphaned. */
  staleMs?: number;
}

/** A started worker. */
export interface IngestionWorker {
  /** Looks for queued jobs now instead of at the next poll. */
  wake(): void;
  /** Stops claiming jobs, hands running ones back to the queue, and waits for them. */
  stop(): Promise<void>;
  /** Stops this process's run of a job now (it was cancelled); false if it is not running here. */
  cancel(jobId: string): boolean;
}

/** A job resumed this many times is failed instead: something in it stops the process. */
export const MAX_RESUMES = 3;
const workers = new WeakMap<AppDeps, IngestionWorker>();

/** Looks for queued jobs now (after an upload or a retry queued one). */
export function wakeWorker(deps: AppDeps): void {
  workers.get(deps)?.wake();
}

/**
 * Stops this process's run of a cancelled job at once (its fetches in flight are aborted). A run
 * on another node stops at its next URL or heartbeat, when it sees the job finished.
 */
export function abortJobRun(deps: AppDeps, jobId: string): boolean {
  return workers.get(deps)?.cancel(jobId) ?? false;
}

/** Queues a publisher-wide drain or sync (or returns the one of that kind already active). */
export async function queueJob(
  deps: AppDeps,
  publisherId: string,
  kind: JobKind,
): Promise<{ job: Job; created: boolean }> {
  const result = await createJob(deps.store.db, publisherId, {
    id: newId("job"),
    kind,
    now: deps.clock.now(),
  });
  workers.get(deps)?.wake();
  return result;
}

/**
 * Finds running jobs whose heartbeat is stale (their process died) and resumes them, or fails
 * them with a reason once they have been resumed MAX_RESUMES times.
 */
export async function recoverJobs(
  deps: AppDeps,
  opts: { staleMs?: number } = {},
): Promise<{ resumed: number; failed: number }> {
  const now = deps.clock.now();
  const stale = await staleJobs(deps.store.db, {
    staleBefore: new Date(now.getTime() - (opts.staleMs ?? 60_000)),
  });
  let resumed = 0;
  let failed = 0;
  for (const job of stale) {
    if (job.resumes >= MAX_RESUMES) {
      const reason = `Interrupted ${
        plural(job.resumes + 1, "time")
      } (the process running it stopped); giving up`;
      if (
        await finishJob(deps.store.db, job.id, { runner: null, outcome: "FAILED", reason, now })
      ) {
        failed++;
      }
    } else if (await requeueJob(deps.store.db, job.id, { heartbeatAt: job.heartbeatAt })) {
      resumed++;
    }
  }
  // A cancellation's release cut short by a crash (store/jobs.ts cancelJob) is finished here.
  const released = await releaseCancelledUrls(deps.store.db);
  if (resumed || failed || released) {
    deps.log.info("ingestion: recovered jobs", { resumed, failed, released });
  }
  return { resumed, failed };
}

/**
 * Starts the in-process worker that runs queued jobs. One per deps: starting another replaces
 * (and first stops) the previous one, so tests can start theirs with short deadlines.
 */
export function startIngestionWorker(deps: AppDeps, opts: WorkerOptions = {}): IngestionWorker {
  const previous = workers.get(deps);
  const ready = previous ? previous.stop() : Promise.resolve();
  const runner = newId("run");
  const maxJobs = opts.maxJobs ?? 2;
  const pollMs = opts.pollMs ?? 2000;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  const runs = new Map<string, AbortController>();
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let lastRecovery = -Infinity;

  const runOne = (job: Job) => {
    const cancelled = new AbortController();
    runs.set(job.id, cancelled);
    const p = (async () => {
      try {
        const signal = AbortSignal.any([stopping.signal, cancelled.signal]);
        const end = await runJob(deps, job, { ...opts, runner, signal });
        if (end === "released") {
          // Shutdown: hand the job back so the next start (or another node) resumes it at once.
          await releaseJob(deps.store.db, job.id, { runner });
        } else if (end === "yielded") {
          await releaseJob(deps.store.db, job.id, { runner, requeueAt: deps.clock.now() });
        }
      } catch (e) {
        deps.log.error("ingestion: job failed to run", { jobId: job.id, error: String(e) });
        await finishJob(deps.store.db, job.id, {
          runner,
          outcome: "FAILED",
          reason: "The job stopped on an internal error; see the log",
          now: deps.clock.now(),
        }).catch(() => {});
      }
    })().finally(() => {
      runs.delete(job.id);
      running.delete(p);
      worker.wake();
    });
    running.add(p);
  };

  const loop = (async () => {
    await ready;
    while (!stopping.signal.aborted) {
      try {
        if (performance.now() - lastRecovery > (opts.staleMs ?? 60_000) / 2) {
          lastRecovery = performance.now();
          await recoverJobs(deps, { staleMs: opts.staleMs });
        }
        while (running.size < maxJobs && !stopping.signal.aborted) {
          const job = await claimJob(deps.store.db, runner, { now: deps.clock.now() });
          if (!job) break;
          runOne(job);
        }
      } catch (e) {
        if (!stopping.signal.aborted) {
          deps.log.warn("ingestion: worker poll failed", { error: String(e) });
        }
      }
      if (woken) {
        woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          woken = false;
          resolve();
        }
        wakeUp = done;
      });
    }
  })();

  const worker: IngestionWorker = {
    wake: () => {
      woken = true;
      wakeUp?.();
    },
    cancel: (jobId) => {
      const run = runs.get(jobId);
      run?.abort(CANCELLED);
      return !!run;
    },
    stop: async () => {
      if (!stopping.signal.aborted) stopping.abort(SHUTDOWN);
      wakeUp?.();
      await loop;
      await Promise.all([...running]);
      if (workers.get(deps) === worker) workers.delete(deps);
    },
  };
  workers.set(deps, worker);
  return worker;
}

/** Stops the worker started for `deps`, if any (tests that drive jobs by hand use it). */
export async function stopIngestionWorker(deps: AppDeps): Promise<void> {
  await workers.get(deps)?.stop();
}

/**
 * The daily source sync (docs/DESIGN.md section 8): queues a sync job for every publisher with listed
 * URLs. Every node's cron calls it; the lease (server/domain/billing/lease.ts) lets one of them do it.
 * Returns how many jobs it queued (0 when another node holds the lease).
 */
export async function dailySync(deps: AppDeps, opts: { holder: string }): Promise<number> {
  const leased = await withLease(deps.store.db, "ingest-daily-sync", {
    holder: opts.holder,
    ttlMs: 10 * 60_000,
    now: deps.clock.now(),
  }, async () => {
    let queued = 0;
    for (const publisherId of await publishersWithUrls(deps.store.db)) {
      if ((await queueJob(deps, publisherId, "sync")).created) queued++;
    }
    return queued;
  });
  return leased.ran ? leased.result : 0;
}
