/**
 * The work of ingestion jobs in source_urls: what a job still has to do, recording each URL's
 * result together with the job's counts (one transaction, so the counts stay exact across a
 * crash and a resume), and the bulk changes of the lifecycle: skipping a failed host's URLs,
 * re-queueing failures for a retry, removing URLs. publisherId comes first.
 */
import { type Client, type Executor, inWriteTx } from "./db.ts";
import { insertUrlsJob, type JobKind, type JobScope, UNOWNED_SQL } from "./jobs.ts";
import { NOT_SITE_SQL, type SourceUrl, toSourceUrl, URL_COLUMNS } from "./sources.ts";

/** What a job works through: a drain its own queued URLs, a sync what it has not re-checked. */
export interface JobWork {
  id: string;
  kind: JobKind;
  /** "urls": the job works through the URLs it owns (a drain, or a site's sync). */
  scope: JobScope;
  /** When the job started (ms): a sync re-checks what was not fetched since. */
  startedAt: number;
}

/** A URL's result as a job records it. */
export type UrlResult =
  | {
    state: "ingested" | "unchanged";
    articleId: string;
    etag?: string | null;
    lastModified?: string | null;
  }
  | { state: "failed" | "blocked"; category: string; reason: string }
  /** The page answered 404 or 410: its article was unpublished. */
  /** `already`: its article was unpublished before (a later sync counts it unchanged). */
  | { state: "removed"; articleId: string; reason: string; already?: boolean };

/** Whether a job works through the URLs it owns rather than the publisher's at large. */
export function ownsUrls(job: Pick<JobWork, "kind" | "scope">): boolean {
  return job.kind === "drain" || job.scope === "urls";
}

function pending(job: JobWork): { where: string; args: (string | number)[] } {
  if (ownsUrls(job)) return { where: "job_id = ? AND state = 'queued'", args: [job.id] };
  // A sync re-checks every known URL not fetched since it started (so a resumed sync continues
  // where it stopped), except what robots.txt refused, what was cancelled, what a drain owns,
  // and a site's URLs (its own sync re-checks them: store/sites.ts).
  return {
    where: `(state IN ('ingested', 'unchanged', 'failed') OR (state = 'queued' AND ${UNOWNED_SQL}))
            AND (fetched_at IS NULL OR fetched_at < ?) AND ${NOT_SITE_SQL}`,
    args: [job.startedAt],
  };
}

/** How many URLs the job still has to process. */
export async function countPending(db: Client, publisherId: string, job: JobWork): Promise<number> {
  const p = pending(job);
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM source_urls WHERE publisher_id = ? AND ${p.where}`,
    args: [publisherId, ...p.args],
  });
  return Number(rs.rows[0].n);
}

/** The job's next URLs, in upload order (so a CSV that interleaves sites keeps several busy). */
export async function nextPending(
  db: Client,
  publisherId: string,
  job: JobWork,
  opts: { limit: number; exclude: string[] },
): Promise<SourceUrl[]> {
  const p = pending(job);
  const ex = opts.exclude.length
    ? ` AND url NOT IN (${opts.exclude.map(() => "?").join(",")})`
    : "";
  const rs = await db.execute({
    sql: `SELECT ${URL_COLUMNS} FROM source_urls WHERE publisher_id = ? AND ${p.where}${ex}
          ORDER BY rowid LIMIT ?`,
    args: [publisherId, ...p.args, ...opts.exclude, opts.limit],
  });
  return rs.rows.map(toSourceUrl);
}

/** Whether the URL is still the job's to process (not removed, cancelled or done meanwhile). */
export async function stillPending(
  db: Client,
  publisherId: string,
  url: string,
  job: JobWork,
): Promise<boolean> {
  const p = pending(job);
  const rs = await db.execute({
    sql: `SELECT 1 FROM source_urls WHERE publisher_id = ? AND url = ? AND ${p.where}`,
    args: [publisherId, url, ...p.args],
  });
  return rs.rows.length > 0;
}

/**
 * Records one URL's result and counts it on the job, in one transaction; nothing happens when the
 * URL is no longer the job's (removed, cancelled, or done by another job meanwhile). Returns
 * whether it was recorded and where the job stands now (a cancelled job is "finished").
 */
export async function recordUrl(
  db: Client,
  publisherId: string,
  url: string,
  job: JobWork,
  result: UrlResult,
  opts: { now: Date },
): Promise<{ recorded: boolean; jobState: string | null; runner: string | null }> {
  const p = pending(job);
  const page = result.state === "ingested" || result.state === "unchanged" ? result : null;
  const failure = result.state === "failed" || result.state === "blocked" ? result : null;
  const removed = result.state === "removed" ? result : null;
  // A cancelled job's URLs still queued are being released (store/jobs.ts cancelJob): not its.
  const owned = ownsUrls(job)
    ? " AND NOT EXISTS (SELECT 1 FROM ingestion_jobs WHERE id = ? AND outcome = 'CANCELLED')"
    : "";
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `UPDATE source_urls SET state = ?, reason = ?, article_id = COALESCE(?, article_id),
              etag = CASE WHEN ? THEN ? ELSE etag END,
              last_modified = CASE WHEN ? THEN ? ELSE last_modified END,
              attempts = attempts + 1, fetched_at = ?, job_id = ?
            WHERE publisher_id = ? AND url = ? AND ${p.where}${owned}`,
      args: [
        result.state,
        failure?.reason ?? removed?.reason ?? null,
        page?.articleId ?? null,
        page?.etag !== undefined,
        page?.etag ?? null,
        page?.lastModified !== undefined,
        page?.lastModified ?? null,
        opts.now.getTime(),
        job.id,
        publisherId,
        url,
        ...p.args,
        ...(owned ? [job.id] : []),
      ],
    });
    const recorded = rs.rowsAffected > 0;
    if (recorded) {
      const what = page
        ? page.state
        : removed
        ? removed.already ? "unchanged" : "unpublished"
        : { category: failure!.category };
      await count(tx, job.id, what, 1);
    }
    const state = await tx.execute({
      sql: "SELECT state, runner FROM ingestion_jobs WHERE id = ?",
      args: [job.id],
    });
    const row = state.rows[0];
    return {
      recorded,
      jobState: row ? String(row.state) : null,
      runner: row?.runner == null ? null : String(row.runner),
    };
  });
}

/**
 * Fails a drain's remaining queued URLs of one host (`host` as in URL.host) with `reason`, counted
 * under `category`, except those in flight (`exclude`). Returns how many.
 */
export async function skipHost(
  db: Client,
  publisherId: string,
  job: JobWork,
  input: { host: string; exclude: string[]; reason: string; category: string; now: Date },
): Promise<number> {
  if (!ownsUrls(job)) return 0;
  const prefixes = [`http://${input.host}/`, `https://${input.host}/`];
  const ex = input.exclude.length
    ? ` AND url NOT IN (${input.exclude.map(() => "?").join(",")})`
    : "";
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `UPDATE source_urls SET state = 'failed', reason = ?, attempts = attempts + 1,
              fetched_at = ?
            WHERE publisher_id = ? AND job_id = ? AND state = 'queued'
            AND (substr(url, 1, ?) = ? OR substr(url, 1, ?) = ?)${ex}`,
      args: [
        input.reason,
        input.now.getTime(),
        publisherId,
        job.id,
        ...prefixes.flatMap((p) => [p.length, p]),
        ...input.exclude,
      ],
    });
    if (rs.rowsAffected > 0) {
      await count(tx, job.id, { category: input.category }, rs.rowsAffected);
    }
    return rs.rowsAffected;
  });
}

async function count(
  tx: Executor,
  jobId: string,
  what: "ingested" | "unchanged" | "unpublished" | { category: string },
  n: number,
): Promise<void> {
  if (typeof what === "string") {
    await tx.execute({
      sql: `UPDATE ingestion_jobs SET ${what} = ${what} + ? WHERE id = ?`,
      args: [n, jobId],
    });
    return;
  }
  const path = `$."${what.category.replaceAll('"', "'")}"`;
  await tx.execute({
    sql: `UPDATE ingestion_jobs SET failed = failed + ?,
            reasons = json_set(reasons, ?, COALESCE(json_extract(reasons, ?), 0) + ?)
          WHERE id = ?`,
    args: [n, path, path, n, jobId],
  });
}

/**
 * Re-queues the failed and cancelled URLs of a job or an upload (and those it left queued when it
 * ended), under a new drain `jobId` queued in the same transaction. URLs another active job owns
 * are left alone. Returns how many were re-queued (0: no job was created).
 */
export async function requeueFailed(
  db: Client,
  publisherId: string,
  of: { jobId: string } | { sourceId: string },
  input: { jobId: string; sourceId: string | null; now: Date },
): Promise<number> {
  const [column, value] = "jobId" in of ? ["job_id", of.jobId] : ["source_id", of.sourceId];
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `UPDATE source_urls SET state = 'queued', reason = NULL, job_id = ?
            WHERE publisher_id = ? AND ${column} = ?
            AND (state IN ('failed', 'cancelled') OR (state = 'queued' AND ${UNOWNED_SQL}))`,
      args: [input.jobId, publisherId, value],
    });
    if (rs.rowsAffected > 0) {
      await tx.execute(insertUrlsJob(publisherId, {
        id: input.jobId,
        sourceId: input.sourceId,
        discovered: rs.rowsAffected,
        now: input.now,
      }));
    }
    return rs.rowsAffected;
  });
}

/** What a removal did: URL rows removed, and how many of them had an article (which stays). */
export interface Removal {
  removed: number;
  articlesKept: number;
}

/** Removes listed URLs of a publisher (their articles stay). */
export async function removeUrls(
  db: Client,
  publisherId: string,
  urls: string[],
): Promise<Removal> {
  return await inWriteTx(db, async (tx) => {
    const out: Removal = { removed: 0, articlesKept: 0 };
    for (let i = 0; i < urls.length; i += 500) {
      const batch = urls.slice(i, i + 500);
      const marks = batch.map(() => "?").join(",");
      const rs = await tx.execute({
        sql: `DELETE FROM source_urls WHERE publisher_id = ? AND url IN (${marks})
              RETURNING article_id`,
        args: [publisherId, ...batch],
      });
      out.removed += rs.rows.length;
      out.articlesKept += rs.rows.filter((r) => r.article_id !== null).length;
    }
    return out;
  });
}

/** Removes an upload and the URLs it added (their articles stay). */
export async function removeSource(
  db: Client,
  publisherId: string,
  sourceId: string,
): Promise<Removal> {
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `SELECT COUNT(*) AS n, COUNT(article_id) AS kept FROM source_urls
            WHERE publisher_id = ? AND source_id = ?`,
      args: [publisherId, sourceId],
    });
    await tx.execute({
      sql: "DELETE FROM source_urls WHERE publisher_id = ? AND source_id = ?",
      args: [publisherId, sourceId],
    });
    await tx.execute({
      sql: "DELETE FROM sources WHERE publisher_id = ? AND id = ?",
      args: [publisherId, sourceId],
    });
    return { removed: Number(rs.rows[0].n), articlesKept: Number(rs.rows[0].kept) };
  });
}
