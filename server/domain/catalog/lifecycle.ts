/**
 * The ingestion lifecycle a publisher drives (issue 11): cancelling a job, retrying failed URLs,
 * removing an upload or listed URLs. Articles already ingested stay: removing a URL stops us
 * fetching it, it does not unpublish what it produced.
 */
import { newId } from "../../../store/ids.ts";
import { removeSource, removeUrls, requeueFailed } from "../../../store/ingest_queue.ts";
import {
  cancelJob,
  cancelledUrlReason,
  getJob,
  type Job,
  jobsOfSource,
} from "../../../store/jobs.ts";
import { getSource } from "../../../store/sources.ts";
import type { AppDeps } from "../../deps.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { abortJobRun, wakeWorker } from "./jobs.ts";
import { normalizeUrl } from "./sources.ts";

/** The reason a cancellation records when the publisher gives none. */
export const DEFAULT_CANCEL_REASON = "Cancelled by the publisher";

/** What a cancellation did: the job as it is now, and how many queued URLs it released. */
export interface Cancellation {
  job: Job;
  released: number;
}

/**
 * Cancels a queued or running job: CANCELLED with `reason`, its queued URLs released (state
 * "cancelled"), its run in this process stopped at once. 404 unknown, 409 already finished.
 */
export async function cancelIngestJob(
  deps: AppDeps,
  publisherId: string,
  jobId: string,
  reason = DEFAULT_CANCEL_REASON,
): Promise<Cancellation> {
  const result = await cancelJob(deps.store.db, publisherId, jobId, {
    reason,
    urlReason: cancelledUrlReason(jobId, reason),
    now: deps.clock.now(),
    // Its run stops as soon as the job is finished, not after its URLs are released.
    onFinished: () => abortJobRun(deps, jobId),
  });
  if (!result) throw notFound("Job");
  if (result.released === null) {
    throw new AppError(
      409,
      "job_finished",
      `Job ${jobId} has already finished (${result.job.outcome}); only a queued or running job can be cancelled`,
    );
  }
  deps.log.info("ingestion: job cancelled", { jobId, released: result.released });
  return { job: result.job, released: result.released };
}

/** What a retry did: the new drain job and how many URLs it re-queued. */
export interface Retry {
  job: Job;
  requeued: number;
}

/**
 * Re-queues a finished job's failed and cancelled URLs (and any it left queued) under a new drain
 * job. 404 unknown, 409 while the job is active or when it has nothing to retry.
 */
export async function retryJob(deps: AppDeps, publisherId: string, jobId: string): Promise<Retry> {
  const job = await getJob(deps.store.db, publisherId, jobId);
  if (!job) throw notFound("Job");
  if (job.state !== "finished") {
    throw new AppError(
      409,
      "job_active",
      `Job ${jobId} is still ${job.state}; retry it once it has finished, or cancel it first`,
    );
  }
  return await requeue(deps, publisherId, { jobId }, job.sourceId, `Job ${jobId}`);
}

/** Re-queues an upload's failed and cancelled URLs (those no active job owns) under a new drain. */
export async function retrySource(
  deps: AppDeps,
  publisherId: string,
  sourceId: string,
): Promise<Retry> {
  if (!await getSource(deps.store.db, publisherId, sourceId)) throw notFound("Source");
  return await requeue(deps, publisherId, { sourceId }, sourceId, `Source ${sourceId}`);
}

async function requeue(
  deps: AppDeps,
  publisherId: string,
  of: { jobId: string } | { sourceId: string },
  sourceId: string | null,
  what: string,
): Promise<Retry> {
  const id = newId("job");
  const requeued = await requeueFailed(deps.store.db, publisherId, of, {
    jobId: id,
    sourceId,
    now: deps.clock.now(),
  });
  if (requeued === 0) {
    throw new AppError(409, "nothing_to_retry", `${what} has no failed or cancelled URLs to retry`);
  }
  wakeWorker(deps);
  return { job: (await getJob(deps.store.db, publisherId, id))!, requeued };
}

/** A note every removal answer carries. */
export const ARTICLES_KEPT_NOTE =
  "Articles already ingested from these URLs stay published; unpublish them separately";

/** What removing an upload did. */
export interface SourceRemoval {
  sourceId: string;
  removed: number;
  articlesKept: number;
  cancelledJobs: string[];
  note: string;
}

/** Removes an upload and the URLs it added, cancelling its active jobs first. 404 unknown. */
export async function removeUpload(
  deps: AppDeps,
  publisherId: string,
  sourceId: string,
): Promise<SourceRemoval> {
  const db = deps.store.db;
  if (!await getSource(db, publisherId, sourceId)) throw notFound("Source");
  const cancelledJobs: string[] = [];
  for (const job of await jobsOfSource(db, publisherId, sourceId, { active: true })) {
    try {
      await cancelIngestJob(deps, publisherId, job.id, "The upload was removed");
      cancelledJobs.push(job.id);
    } catch (e) {
      if (!(e instanceof AppError && e.status === 409)) throw e; // it finished meanwhile
    }
  }
  const removal = await removeSource(db, publisherId, sourceId);
  return { sourceId, ...removal, cancelledJobs, note: ARTICLES_KEPT_NOTE };
}

/** What removing listed URLs did. */
export interface UrlRemoval {
  removed: number;
  notFound: number;
  articlesKept: number;
  note: string;
}

/** Removes listed URLs (given as uploaded; normalised like the CSV). A job skips them. */
export async function removeListedUrls(
  deps: AppDeps,
  publisherId: string,
  urls: string[],
): Promise<UrlRemoval> {
  const unique = [...new Set(urls.map((u) => normalizeUrl(u) ?? u))];
  const removal = await removeUrls(deps.store.db, publisherId, unique);
  return { ...removal, notFound: unique.length - removal.removed, note: ARTICLES_KEPT_NOTE };
}
