/**
 * Sites (issue 30): sources of kind 'site', whose URLs a sync finds in the site's sitemaps and
 * feeds. Each run is a 'sync' job of scope 'urls' (one active per site, by a unique index) that
 * queues the pages it finds here as it finds them (queueListed, finishDiscovery), then works through the URLs it queued.
 * publisherId comes first.
 */
import { type Client, inWriteTx } from "./db.ts";
import { getJob, type Job, UNOWNED_SQL } from "./jobs.ts";
import { SITE_SYNC_HOURS, type Source, SOURCE_COLUMNS, toSource } from "./sources.ts";
import { sharedTurn } from "./turns.ts";

/** Records a site; null when the publisher already has one at this address. */
export async function insertSite(
  db: Client,
  publisherId: string,
  input: { id: string; url: string; syncEveryHours: number | null; now: Date },
): Promise<Source | null> {
  const rs = await db.execute({
    sql: `INSERT INTO sources (id, publisher_id, kind, site_url, sync_every_hours, original_name,
            content_hash, created_at) VALUES (?, ?, 'site', ?, ?, NULL, ?, ?)
          ON CONFLICT DO NOTHING`,
    args: [
      input.id,
      publisherId,
      input.url,
      input.syncEveryHours,
      `site:${input.url}`,
      input.now.getTime(),
    ],
  });
  return rs.rowsAffected ? await getSite(db, publisherId, input.id) : null;
}

/** One of a publisher's sites. */
export async function getSite(db: Client, publisherId: string, id: string): Promise<Source | null> {
  const rs = await db.execute({
    sql:
      `SELECT ${SOURCE_COLUMNS} FROM sources WHERE publisher_id = ? AND id = ? AND kind = 'site'`,
    args: [publisherId, id],
  });
  return rs.rows[0] ? toSource(rs.rows[0]) : null;
}

/** The publisher's site at this address, if any. */
export async function findSiteByUrl(
  db: Client,
  publisherId: string,
  url: string,
): Promise<Source | null> {
  const rs = await db.execute({
    sql: `SELECT ${SOURCE_COLUMNS} FROM sources
          WHERE publisher_id = ? AND site_url = ? AND kind = 'site'`,
    args: [publisherId, url],
  });
  return rs.rows[0] ? toSource(rs.rows[0]) : null;
}

/** A publisher's sites, oldest first. */
export async function listSites(db: Client, publisherId: string): Promise<Source[]> {
  const rs = await db.execute({
    sql: `SELECT ${SOURCE_COLUMNS} FROM sources WHERE publisher_id = ? AND kind = 'site'
          ORDER BY created_at, id LIMIT 200`,
    args: [publisherId],
  });
  return rs.rows.map(toSource);
}

/**
 * Queues a sync of the site unless one is queued or running, in which case that one is returned.
 * The site's last_synced_at is the time its latest sync was queued.
 */
export async function queueSiteSync(
  db: Client,
  publisherId: string,
  input: { siteId: string; jobId: string; now: Date },
): Promise<{ job: Job; created: boolean }> {
  const now = input.now.getTime();
  const jobId = await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: `INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, source_id, state,
              created_at, queued_at) VALUES (?, ?, 'sync', 'urls', ?, 'queued', ?, ?)
            ON CONFLICT DO NOTHING`,
      args: [input.jobId, publisherId, input.siteId, now, now],
    });
    if (rs.rowsAffected) {
      await tx.execute({
        sql: "UPDATE sources SET last_synced_at = ? WHERE publisher_id = ? AND id = ?",
        args: [now, publisherId, input.siteId],
      });
      return input.jobId;
    }
    const active = await tx.execute({
      sql: `SELECT id FROM ingestion_jobs WHERE publisher_id = ? AND source_id = ?
            AND kind = 'sync' AND scope = 'urls' AND state != 'finished'`,
      args: [publisherId, input.siteId],
    });
    return String(active.rows[0].id);
  });
  return { job: (await getJob(db, publisherId, jobId))!, created: jobId === input.jobId };
}

/** Changes how often a site is synced; false when the publisher has no such site. */
export async function setSiteInterval(
  db: Client,
  publisherId: string,
  id: string,
  syncEveryHours: number,
): Promise<boolean> {
  const rs = await db.execute({
    sql:
      `UPDATE sources SET sync_every_hours = ? WHERE publisher_id = ? AND id = ? AND kind = 'site'`,
    args: [syncEveryHours, publisherId, id],
  });
  return rs.rowsAffected > 0;
}

/**
 * Sites due a sync at `now`: never synced, or last synced at least their interval ago (less
 * `slackMs`, so a cron firing a little early still finds them due), for the cron.
 */
export async function sitesDue(
  db: Client,
  opts: { now: Date; slackMs: number; limit: number },
): Promise<{ publisherId: string; id: string }[]> {
  const rs = await db.execute({
    sql: `SELECT publisher_id, id FROM sources WHERE kind = 'site' AND (last_synced_at IS NULL
            OR last_synced_at + COALESCE(sync_every_hours, ?) * 3600000 <= ?)
          ORDER BY last_synced_at LIMIT ?`,
    args: [SITE_SYNC_HOURS, opts.now.getTime() + opts.slackMs, opts.limit],
  });
  return rs.rows.map((r) => ({ publisherId: String(r.publisher_id), id: String(r.id) }));
}

/** A page a site lists, as its discovery found it. */
export interface ListedPage {
  url: string;
  /** ms since the epoch, from the sitemap's lastmod or the feed's dates. */
  lastmod: number | null;
  title: string | null;
}

/** What a discovery queued: pages to fetch, and pages left alone as unchanged by their lastmod. */
export interface AppliedDiscovery {
  queued: number;
  unchanged: number;
}

const BATCH = 400;
/** Rows of the site's pages looked at per statement when finishing a discovery. */
const SCAN = 2000;
/**
 * The event loop's turn between two batches (a timer: requests waiting are served first). The
 * driver is synchronous, so without it 50,000 URLs were queued in one 1.5 s task (issue 39).
 */
const turn = sharedTurn;

/**
 * Queues a batch of the pages a site sync's discovery found, as it finds them (nothing is held per
 * page: issue 39), and marks each listed by the job. Run again with pages already listed by this
 * job (a page in a sitemap and a feed, or a resumed job), it changes nothing but what a later
 * lastmod asks for. Returns how many of the pages this job had not listed yet.
 * - a new URL is queued (new article);
 * - a known URL is queued again (a conditional re-fetch) unless its lastmod is no later than our
 *   last fetch of it and it was fetched fine: then it is left alone, unchanged without a request;
 * - a URL another active job owns is left to that job.
 */
export async function queueListed(
  db: Client,
  publisherId: string,
  input: { jobId: string; siteId: string; pages: ListedPage[]; now: Date },
): Promise<number> {
  const now = input.now.getTime();
  let listed = 0;
  for (let i = 0; i < input.pages.length; i += BATCH) {
    if (i > 0) await turn();
    const batch = input.pages.slice(i, i + BATCH);
    listed += await inWriteTx(db, async (tx) => {
      const marks = batch.map(() => "?").join(",");
      const known = await tx.execute({
        sql: `SELECT url, state, fetched_at, listed_by,
                (state = 'queued' AND NOT ${UNOWNED_SQL}) AS owned
              FROM source_urls WHERE publisher_id = ? AND url IN (${marks})`,
        args: [publisherId, ...batch.map((p) => p.url)],
      });
      const rows = new Map(known.rows.map((r) => [String(r.url), r]));
      const fresh = new Map<string, ListedPage>();
      const again: string[] = [];
      const marked: string[] = [];
      for (const page of batch) {
        const r = rows.get(page.url);
        if (!r) {
          if (!fresh.has(page.url)) fresh.set(page.url, page);
          continue;
        }
        const repeat = r.listed_by === input.jobId;
        if (!repeat) {
          marked.push(page.url);
          r.listed_by = input.jobId; // listed twice in this batch: the second is a repeat
        }
        if (Number(r.owned)) continue; // this job's already, or another active job's
        // Listed again without a date, a page judged unchanged stays so.
        if (repeat && page.lastmod === null) continue;
        const fetchedAt = r.fetched_at === null ? null : Number(r.fetched_at);
        const fine = r.state === "ingested" || r.state === "unchanged";
        if (fine && page.lastmod !== null && fetchedAt !== null && page.lastmod <= fetchedAt) {
          continue;
        }
        again.push(page.url);
        r.owned = 1;
      }
      if (fresh.size) {
        const pages = [...fresh.values()];
        await tx.execute({
          sql: `INSERT INTO source_urls (publisher_id, url, source_id, title, state, created_at,
                  job_id, listed_by) VALUES ${
            pages.map(() => "(?, ?, ?, ?, 'queued', ?, ?, ?)")
              .join(", ")
          }
                ON CONFLICT (publisher_id, url) DO NOTHING`,
          args: pages.flatMap((
            p,
          ) => [publisherId, p.url, input.siteId, p.title, now, input.jobId, input.jobId]),
        });
      }
      if (marked.length) {
        await tx.execute({
          sql: `UPDATE source_urls SET listed_by = ?
                WHERE publisher_id = ? AND url IN (${marked.map(() => "?").join(",")})`,
          args: [input.jobId, publisherId, ...marked],
        });
      }
      if (again.length) await requeue(tx, publisherId, again, input.jobId);
      return fresh.size + marked.length;
    });
  }
  return listed;
}

/**
 * Ends a site sync's discovery once every page found is queued (queueListed): the site's pages
 * held and fetched fine that this run did not find listed are queued to learn whether they are
 * gone (404 or 410 unpublishes them), and the job is marked discovered with its counts. The site's
 * rows are read a slice at a time by rowid, with turns between, never all at once.
 */
export async function finishDiscovery(
  db: Client,
  publisherId: string,
  input: { jobId: string; siteId: string; discovery: unknown },
): Promise<AppliedDiscovery> {
  for (const state of ["ingested", "unchanged"]) {
    for (let after = -1;;) {
      await turn();
      const rs = await db.execute({
        sql: `SELECT rowid AS id, url, listed_by FROM source_urls
              WHERE publisher_id = ? AND source_id = ? AND state = ? AND rowid > ?
              ORDER BY rowid LIMIT ${SCAN}`,
        args: [publisherId, input.siteId, state, after],
      });
      if (!rs.rows.length) break;
      after = Number(rs.rows[rs.rows.length - 1].id);
      const vanished: string[] = [];
      for (const r of rs.rows) if (r.listed_by !== input.jobId) vanished.push(String(r.url));
      for (let i = 0; i < vanished.length; i += BATCH) {
        if (i > 0) await turn();
        await inWriteTx(
          db,
          (tx) => requeue(tx, publisherId, vanished.slice(i, i + BATCH), input.jobId),
        );
      }
    }
  }
  return await inWriteTx(db, async (tx) => {
    const q = await tx.execute({
      sql: `SELECT COUNT(*) AS n FROM source_urls
            WHERE publisher_id = ? AND job_id = ? AND state = 'queued'`,
      args: [publisherId, input.jobId],
    });
    const queued = Number(q.rows[0].n);
    // Listed by this run and still fetched fine: left alone by their lastmod.
    const same = await tx.execute({
      sql: `SELECT COUNT(*) AS n FROM source_urls WHERE publisher_id = ? AND listed_by = ?
            AND state IN ('ingested', 'unchanged')`,
      args: [publisherId, input.jobId],
    });
    const unchanged = Number(same.rows[0].n);
    await tx.execute({
      sql: `UPDATE ingestion_jobs SET discovery = ?, discovered = ?, unchanged = ?
            WHERE publisher_id = ? AND id = ?`,
      args: [
        JSON.stringify(input.discovery),
        queued + unchanged,
        unchanged,
        publisherId,
        input.jobId,
      ],
    });
    return { queued, unchanged };
  });
}

async function requeue(
  tx: Pick<Client, "execute">,
  publisherId: string,
  urls: string[],
  jobId: string,
): Promise<void> {
  await tx.execute({
    // A removed page keeps its reason while queued: if it answers again, it is republished.
    sql: `UPDATE source_urls SET state = 'queued', job_id = ?,
            reason = CASE WHEN state = 'removed' THEN reason END
          WHERE publisher_id = ? AND url IN (${urls.map(() => "?").join(",")})
          AND NOT (state = 'queued' AND NOT ${UNOWNED_SQL})`,
    args: [jobId, publisherId, ...urls],
  });
}

/** Marks a site sync discovered without work (its discovery failed); the runner then fails it. */
export async function recordDiscovery(
  db: Client,
  publisherId: string,
  input: { jobId: string; discovery: unknown },
): Promise<void> {
  await db.execute({
    sql: "UPDATE ingestion_jobs SET discovery = ? WHERE publisher_id = ? AND id = ?",
    args: [JSON.stringify(input.discovery), publisherId, input.jobId],
  });
}
