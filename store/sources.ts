/** Persistence of sources (uploaded URL lists) and the URLs they queue. publisherId comes first. */
import { type Client, inWriteTx } from "./db.ts";
import { insertUrlsJob } from "./jobs.ts";

/** Where one listed URL stands; "cancelled": released from the queue by a cancelled job. */
export type SourceUrlState =
  | "queued"
  | "ingested"
  | "unchanged"
  | "failed"
  | "blocked"
  | "cancelled"
  | "removed";
/** Every URL state, in the order reports list them. */
export const URL_STATES = [
  "queued",
  "ingested",
  "unchanged",
  "failed",
  "blocked",
  "cancelled",
  "removed",
] as const satisfies readonly SourceUrlState[];

/** A source as stored: an uploaded CSV, or a site whose sitemaps and feeds list its pages. */
export interface Source {
  id: string;
  kind: "csv" | "site";
  /** The site's address, for a site. */
  siteUrl: string | null;
  /** When a site's latest sync was queued. */
  lastSyncedAt: string | null;
  /** How often the cron syncs a site, in hours (null for an upload). */
  syncEveryHours: number | null;
  originalName: string | null;
  contentHash: string;
  accepted: number;
  rejected: number;
  createdAt: string;
}

/** One URL a publisher asked us to ingest. */
export interface SourceUrl {
  url: string;
  sourceId: string | null;
  title: string | null;
  state: SourceUrlState;
  reason: string | null;
  articleId: string | null;
  attempts: number;
  etag: string | null;
  lastModified: string | null;
  /** When it was last attempted (ms since the epoch), whatever the result. */
  fetchedAt: number | null;
  /** The job that owns it while queued, then the job that last processed it. */
  jobId: string | null;
}

/** Columns of a Source (toSource reads them). */
export const SOURCE_COLUMNS =
  "id, kind, site_url, last_synced_at, sync_every_hours, original_name, content_hash, accepted, rejected, created_at";

/** A site is synced daily unless the publisher asks for another interval. */
export const SITE_SYNC_HOURS = 24;

/** The URL was not found by a site's discovery (over `source_urls`, unaliased). */
export const NOT_SITE_SQL = `(source_id IS NULL OR NOT EXISTS (SELECT 1 FROM sources s
  WHERE s.id = source_urls.source_id AND s.kind = 'site'))`;
/** Columns of a SourceUrl (toSourceUrl reads them). */
export const URL_COLUMNS =
  "url, source_id, title, state, reason, article_id, attempts, etag, last_modified, fetched_at, job_id";

/** The source already uploaded with this content hash, if any (re-uploads create no work). */
export async function findSourceByHash(
  db: Client,
  publisherId: string,
  contentHash: string,
): Promise<Source | null> {
  const rs = await db.execute({
    sql: `SELECT ${SOURCE_COLUMNS} FROM sources
          WHERE publisher_id = ? AND content_hash = ? AND kind = 'csv'
          ORDER BY created_at LIMIT 1`,
    args: [publisherId, contentHash],
  });
  return rs.rows[0] ? toSource(rs.rows[0]) : null;
}

/** One of a publisher's sources. */
export async function getSource(
  db: Client,
  publisherId: string,
  id: string,
): Promise<Source | null> {
  const rs = await db.execute({
    sql: `SELECT ${SOURCE_COLUMNS} FROM sources WHERE publisher_id = ? AND id = ?`,
    args: [publisherId, id],
  });
  return rs.rows[0] ? toSource(rs.rows[0]) : null;
}

/**
 * Records a source and queues its URLs in one transaction. A URL the publisher already listed keeps
 * its row and state (no duplicate work). The new URLs are owned by a drain job `jobId` queued in
 * the same transaction (none when nothing was new). Returns how many URLs were new.
 */
export async function insertSource(
  db: Client,
  publisherId: string,
  input: {
    id: string;
    originalName: string | null;
    contentHash: string;
    rows: { url: string; title: string | null }[];
    rejected: number;
    jobId: string;
  },
  options: { now: Date },
): Promise<number> {
  const now = options.now.getTime();
  return await inWriteTx(db, async (tx) => {
    await tx.execute({
      sql: `INSERT INTO sources (id, publisher_id, kind, original_name, content_hash, accepted,
              rejected, created_at) VALUES (?, ?, 'csv', ?, ?, ?, ?, ?)`,
      args: [
        input.id,
        publisherId,
        input.originalName,
        input.contentHash,
        input.rows.length,
        input.rejected,
        now,
      ],
    });
    let added = 0;
    for (let i = 0; i < input.rows.length; i += 500) {
      const batch = input.rows.slice(i, i + 500);
      const rs = await tx.execute({
        sql: `INSERT INTO source_urls (publisher_id, url, source_id, title, state, created_at,
                job_id) VALUES ${batch.map(() => "(?, ?, ?, ?, 'queued', ?, ?)").join(", ")}
              ON CONFLICT (publisher_id, url) DO NOTHING`,
        args: batch.flatMap((r) => [publisherId, r.url, input.id, r.title, now, input.jobId]),
      });
      added += rs.rowsAffected;
    }
    if (added > 0) {
      await tx.execute(insertUrlsJob(publisherId, {
        id: input.jobId,
        sourceId: input.id,
        discovered: added,
        now: options.now,
      }));
    }
    return added;
  });
}

/** A publisher's sources, newest first. */
export async function listSources(db: Client, publisherId: string): Promise<Source[]> {
  const rs = await db.execute({
    sql: `SELECT ${SOURCE_COLUMNS} FROM sources
          WHERE publisher_id = ? ORDER BY created_at DESC, id LIMIT 200`,
    args: [publisherId],
  });
  return rs.rows.map(toSource);
}

/** URL counts per state. */
export async function countUrlsByState(
  db: Client,
  publisherId: string,
): Promise<Record<SourceUrlState, number>> {
  const rs = await db.execute({
    sql: "SELECT state, COUNT(*) AS n FROM source_urls WHERE publisher_id = ? GROUP BY state",
    args: [publisherId],
  });
  const out = emptyCounts();
  for (const r of rs.rows) out[String(r.state) as SourceUrlState] = Number(r.n);
  return out;
}

/** URL counts per state of each source (sources without URLs left are absent). */
export async function countUrlsBySource(
  db: Client,
  publisherId: string,
): Promise<Map<string, Record<SourceUrlState, number>>> {
  const rs = await db.execute({
    sql: `SELECT source_id, state, COUNT(*) AS n FROM source_urls
          WHERE publisher_id = ? AND source_id IS NOT NULL GROUP BY source_id, state`,
    args: [publisherId],
  });
  const out = new Map<string, Record<SourceUrlState, number>>();
  for (const r of rs.rows) {
    const id = String(r.source_id);
    if (!out.has(id)) out.set(id, emptyCounts());
    out.get(id)![String(r.state) as SourceUrlState] = Number(r.n);
  }
  return out;
}

/** Counts with every state at zero. */
export function emptyCounts(): Record<SourceUrlState, number> {
  return Object.fromEntries(URL_STATES.map((s) => [s, 0])) as Record<SourceUrlState, number>;
}

/** The URLs of a publisher, optionally of one state, upload or job, for reports (bounded). */
export async function listUrls(
  db: Client,
  publisherId: string,
  opts: { state?: SourceUrlState; sourceId?: string; jobId?: string; limit: number },
): Promise<SourceUrl[]> {
  const where = ["publisher_id = ?"];
  const args: (string | number)[] = [publisherId];
  for (
    const [column, value] of [
      ["state", opts.state],
      ["source_id", opts.sourceId],
      ["job_id", opts.jobId],
    ] as const
  ) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    args.push(value);
  }
  const rs = await db.execute({
    sql: `SELECT ${URL_COLUMNS} FROM source_urls WHERE ${where.join(" AND ")}
          ORDER BY created_at, url LIMIT ?`,
    args: [...args, opts.limit],
  });
  return rs.rows.map(toSourceUrl);
}

/** Publishers that have URLs to re-check, for the daily sync (a site's URLs are its own sync's). */
export async function publishersWithUrls(db: Client): Promise<string[]> {
  const rs = await db.execute(
    `SELECT DISTINCT publisher_id FROM source_urls WHERE ${NOT_SITE_SQL}`,
  );
  return rs.rows.map((r) => String(r.publisher_id));
}

/** A sources row (SOURCE_COLUMNS) as a Source. */
// deno-lint-ignore no-explicit-any
export function toSource(r: any): Source {
  return {
    id: String(r.id),
    kind: String(r.kind) === "site" ? "site" : "csv",
    siteUrl: r.site_url == null ? null : String(r.site_url),
    lastSyncedAt: r.last_synced_at == null
      ? null
      : new Date(Number(r.last_synced_at)).toISOString(),
    syncEveryHours: String(r.kind) === "site"
      ? Number(r.sync_every_hours ?? SITE_SYNC_HOURS)
      : null,
    originalName: r.original_name === null ? null : String(r.original_name),
    contentHash: String(r.content_hash),
    accepted: Number(r.accepted),
    rejected: Number(r.rejected),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

/** A source_urls row (URL_COLUMNS) as a SourceUrl. */
// deno-lint-ignore no-explicit-any
export function toSourceUrl(r: any): SourceUrl {
  const s = (v: unknown) => v === null || v === undefined ? null : String(v);
  return {
    url: String(r.url),
    sourceId: s(r.source_id),
    title: s(r.title),
    state: String(r.state) as SourceUrlState,
    reason: s(r.reason),
    articleId: s(r.article_id),
    attempts: Number(r.attempts),
    etag: s(r.etag),
    lastModified: s(r.last_modified),
    fetchedAt: r.fetched_at === null ? null : Number(r.fetched_at),
    jobId: s(r.job_id),
  };
}
