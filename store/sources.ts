/** Persistence of sources (uploaded URL lists) and the URLs they queue. publisherId comes first. */
import type { Client } from "./db.ts";

/** Where one listed URL stands. */
export type SourceUrlState = "queued" | "ingested" | "unchanged" | "failed" | "blocked";

/** An uploaded source as stored. */
export interface Source {
  id: string;
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
  fetchedAt: number | null;
}

/** The source already uploaded with this content hash, if any (re-uploads create no work). */
export async function findSourceByHash(
  db: Client,
  publisherId: string,
  contentHash: string,
): Promise<Source | null> {
  const rs = await db.execute({
    sql: `SELECT id, original_name, content_hash, accepted, rejected, created_at FROM sources
          WHERE publisher_id = ? AND content_hash = ? ORDER BY created_at LIMIT 1`,
    args: [publisherId, contentHash],
  });
  return rs.rows[0] ? toSource(rs.rows[0]) : null;
}

/**
 * Records a source and queues its URLs in one transaction. A URL the publisher already listed keeps
 * its row and state (no duplicate work); returns how many URLs were new.
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
  },
  options: { now: Date },
): Promise<number> {
  const now = options.now.getTime();
  const tx = await db.transaction("write");
  try {
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
        sql: `INSERT INTO source_urls (publisher_id, url, source_id, title, state, created_at)
              VALUES ${batch.map(() => "(?, ?, ?, ?, 'queued', ?)").join(", ")}
              ON CONFLICT (publisher_id, url) DO NOTHING`,
        args: batch.flatMap((r) => [publisherId, r.url, input.id, r.title, now]),
      });
      added += rs.rowsAffected;
    }
    await tx.commit();
    return added;
  } finally {
    tx.close();
  }
}

/** A publisher's sources, newest first. */
export async function listSources(db: Client, publisherId: string): Promise<Source[]> {
  const rs = await db.execute({
    sql: `SELECT id, original_name, content_hash, accepted, rejected, created_at FROM sources
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
  const out: Record<SourceUrlState, number> = {
    queued: 0,
    ingested: 0,
    unchanged: 0,
    failed: 0,
    blocked: 0,
  };
  for (const r of rs.rows) out[String(r.state) as SourceUrlState] = Number(r.n);
  return out;
}

/** Count of URLs in a state (or queued for a sync: every URL not fetched since `before`). */
export async function countPending(
  db: Client,
  publisherId: string,
  opts: { kind: "drain" | "sync"; before: number },
): Promise<number> {
  const rs = await db.execute(pendingQuery(publisherId, opts, "COUNT(*) AS n", null));
  return Number(rs.rows[0].n);
}

/** The next batch of URLs a job must process, oldest first. */
export async function nextPending(
  db: Client,
  publisherId: string,
  opts: { kind: "drain" | "sync"; before: number; limit: number; exclude: string[] },
): Promise<SourceUrl[]> {
  const rs = await db.execute(pendingQuery(publisherId, opts, URL_COLUMNS, opts));
  return rs.rows.map(toSourceUrl);
}

const URL_COLUMNS =
  "url, source_id, title, state, reason, article_id, attempts, etag, last_modified, fetched_at";

function pendingQuery(
  publisherId: string,
  { kind, before }: { kind: "drain" | "sync"; before: number },
  columns: string,
  page: { limit: number; exclude: string[] } | null,
) {
  // A drain takes what is queued; a sync re-checks every known URL not fetched since it started
  // (so a resumed sync continues where it stopped), except those robots.txt or we refused.
  const where = kind === "drain"
    ? "state = 'queued'"
    : "state IN ('ingested', 'unchanged', 'failed', 'queued') AND (fetched_at IS NULL OR fetched_at < ?)";
  const args: (string | number)[] = [publisherId];
  if (kind === "sync") args.push(before);
  let tail = "";
  if (page) {
    const ex = page.exclude.length
      ? ` AND url NOT IN (${page.exclude.map(() => "?").join(",")})`
      : "";
    args.push(...page.exclude, page.limit);
    // Upload order (rowid), so a CSV that interleaves sites keeps several hosts busy at once.
    tail = `${ex} ORDER BY rowid LIMIT ?`;
  }
  return {
    sql: `SELECT ${columns} FROM source_urls WHERE publisher_id = ? AND ${where}${tail}`,
    args,
  };
}

/** Records the outcome of fetching one URL. */
export async function markUrl(
  db: Client,
  publisherId: string,
  url: string,
  outcome: {
    state: Exclude<SourceUrlState, "queued">;
    reason?: string | null;
    articleId?: string | null;
    etag?: string | null;
    lastModified?: string | null;
    now: Date;
  },
): Promise<void> {
  await db.execute({
    sql: `UPDATE source_urls SET state = ?, reason = ?, article_id = COALESCE(?, article_id),
            etag = CASE WHEN ? THEN ? ELSE etag END,
            last_modified = CASE WHEN ? THEN ? ELSE last_modified END,
            attempts = attempts + 1, fetched_at = ?
          WHERE publisher_id = ? AND url = ?`,
    args: [
      outcome.state,
      outcome.reason ?? null,
      outcome.articleId ?? null,
      outcome.etag !== undefined,
      outcome.etag ?? null,
      outcome.lastModified !== undefined,
      outcome.lastModified ?? null,
      outcome.now.getTime(),
      publisherId,
      url,
    ],
  });
}

/** The URLs of a publisher in a state, for reports (newest first, bounded). */
export async function listUrls(
  db: Client,
  publisherId: string,
  opts: { state?: SourceUrlState; limit: number },
): Promise<SourceUrl[]> {
  const rs = await db.execute({
    sql: `SELECT ${URL_COLUMNS} FROM source_urls WHERE publisher_id = ?
          ${opts.state ? "AND state = ?" : ""} ORDER BY created_at, url LIMIT ?`,
    args: opts.state ? [publisherId, opts.state, opts.limit] : [publisherId, opts.limit],
  });
  return rs.rows.map(toSourceUrl);
}

/** Publishers that have URLs to re-check, for the daily sync. */
export async function publishersWithUrls(db: Client): Promise<string[]> {
  const rs = await db.execute("SELECT DISTINCT publisher_id FROM source_urls");
  return rs.rows.map((r) => String(r.publisher_id));
}

// deno-lint-ignore no-explicit-any
function toSource(r: any): Source {
  return {
    id: String(r.id),
    originalName: r.original_name === null ? null : String(r.original_name),
    contentHash: String(r.content_hash),
    accepted: Number(r.accepted),
    rejected: Number(r.rejected),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

// deno-lint-ignore no-explicit-any
function toSourceUrl(r: any): SourceUrl {
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
  };
}
