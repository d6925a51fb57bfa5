/** Persistence of articles (the catalog) and their tags. Every query takes publisherId first. */
import { cachedCatalog } from "./config_cache.ts";
import type { Client } from "./db.ts";
import { articleIdFor, sha256Hex } from "./ids.ts";
import type { Policy } from "./vocabulary.ts";

/** An article as stored. Times are ISO 8601 UTC strings at this boundary. */
export interface Article {
  id: string;
  publisherId: string;
  url: string;
  canonicalUrl: string | null;
  title: string;
  author: string;
  publishedAt: string | null;
  summary: string;
  tags: string[];
  body: string;
  policy: Policy;
  priceMicros: number | null;
  kind: "article" | "chapter";
  bookId: string | null;
  chapterNo: number | null;
  contentHash: string;
  updatedAt: string;
}

/** What a writer supplies; id and hash are derived. */
export interface ArticleInput {
  url: string;
  canonicalUrl?: string | null;
  title: string;
  author?: string;
  publishedAt?: string | null;
  summary?: string;
  tags?: string[];
  body: string;
  policy?: Policy;
  priceMicros?: number | null;
  kind?: "article" | "chapter";
  bookId?: string | null;
  chapterNo?: number | null;
}

export const COLUMNS =
  "id, publisher_id, url, canonical_url, title, author, published_at, summary, tags, body, policy, price_micros, kind, book_id, chapter_no, content_hash, updated_at";

/**
 * The path an article answers at on its publisher's host (docs/DESIGN.md "Publisher host"): a
 * chapter's `/books/<bookId>/chapters/<n>`, else the path of its canonical URL or URL.
 */
export function sitePathOf(
  a: Pick<ArticleInput, "url" | "canonicalUrl" | "kind" | "bookId" | "chapterNo">,
): string | null {
  if (a.kind === "chapter" && a.bookId && a.chapterNo) {
    return `/books/${a.bookId}/chapters/${a.chapterNo}`;
  }
  try {
    const u = new URL(a.canonicalUrl ?? a.url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.pathname : null;
  } catch {
    return null;
  }
}

/** Inserts or updates the article at `input.url`; returns its id and whether its content changed. */
export async function upsertArticle(
  db: Client,
  publisherId: string,
  input: ArticleInput,
  options: { now: Date },
): Promise<{ id: string; changed: boolean }> {
  const id = await articleIdFor(publisherId, input.url);
  const tags = normaliseTags(input.tags ?? []);
  const hash = await contentHash(input, tags);
  const now = options.now.getTime();
  const publishedAt = input.publishedAt ? Date.parse(input.publishedAt) : null;
  const before = await db.execute({
    sql: "SELECT content_hash FROM articles WHERE id = ?",
    args: [id],
  });
  if (before.rows[0]?.content_hash === hash) return { id, changed: false };
  // Policy and price are the publisher's settings: a re-ingest keeps them unless given.
  await db.batch([
    {
      sql: `INSERT INTO articles (${COLUMNS}, created_at, site_path)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
              COALESCE(?, (SELECT default_policy FROM publishers WHERE id = ?), 'OBSERVE'),
              CASE WHEN ? THEN ? ELSE (SELECT default_price_micros FROM publishers WHERE id = ?) END,
              ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET canonical_url = excluded.canonical_url,
              site_path = excluded.site_path,
              title = excluded.title, author = excluded.author, published_at = excluded.published_at,
              summary = excluded.summary, tags = excluded.tags, body = excluded.body,
              policy = CASE WHEN ? THEN excluded.policy ELSE articles.policy END,
              price_micros = CASE WHEN ? THEN excluded.price_micros ELSE articles.price_micros END,
              content_hash = excluded.content_hash, updated_at = excluded.updated_at`,
      args: [
        id,
        publisherId,
        input.url,
        input.canonicalUrl ?? null,
        input.title,
        input.author ?? "",
        Number.isFinite(publishedAt) ? publishedAt : null,
        input.summary ?? "",
        JSON.stringify(tags),
        input.body,
        // A new article the source names no terms for gets the publisher's defaults (issue 34).
        input.policy ?? null,
        publisherId,
        input.priceMicros !== undefined,
        input.priceMicros ?? null,
        publisherId,
        input.kind ?? "article",
        input.bookId ?? null,
        input.chapterNo ?? null,
        hash,
        now,
        now,
        // "" marks "no page" so the start-up backfill does not visit the row again.
        sitePathOf(input) ?? "",
        input.policy !== undefined,
        input.priceMicros !== undefined,
      ],
    },
    { sql: "DELETE FROM article_tags WHERE article_id = ?", args: [id] },
    ...tags.map((tag) => ({
      sql: "INSERT INTO article_tags (publisher_id, tag, article_id) VALUES (?, ?, ?)",
      args: [publisherId, tag, id],
    })),
  ], "write");
  return { id, changed: true };
}

/**
 * The reads below serve agents: they see published articles only (an unpublished article is not
 * found, listed or counted). The management API reads through store/article_pages.ts.
 */
export const PUBLISHED = "unpublished_at IS NULL";

/**
 * One published article by id, or by URL (exact or canonical), within a publisher; kept until the
 * catalog changes (store/config_cache.ts), so the object is shared and frozen. `db` may be the
 * request's `readView()`, sparing a second version read.
 */
export function findArticle(
  db: Client,
  publisherId: string,
  idOrUrl: string,
): Promise<Article | null> {
  return cachedCatalog(
    db,
    `article\n${publisherId}\n${idOrUrl}`,
    () => loadArticle(db, publisherId, idOrUrl),
  );
}

async function loadArticle(
  db: Client,
  publisherId: string,
  idOrUrl: string,
): Promise<Article | null> {
  // One indexed branch per key: with an OR, SQLite scanned all of the publisher's articles.
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM articles WHERE id = ?1 AND publisher_id = ?2 AND ${PUBLISHED}
          UNION ALL SELECT ${COLUMNS} FROM articles
            WHERE publisher_id = ?2 AND url = ?1 AND ${PUBLISHED}
          UNION ALL SELECT ${COLUMNS} FROM articles
            WHERE publisher_id = ?2 AND canonical_url = ?1 AND ${PUBLISHED}
          LIMIT 1`,
    args: [idOrUrl, publisherId],
  });
  return rs.rows[0] ? toArticle(rs.rows[0]) : null;
}

/**
 * The published article at `path` on the publisher's host; a trailing slash is optional. When two
 * articles share a path (the same path on two origins), the most recently published wins.
 */
export async function findArticleByPath(
  db: Client,
  publisherId: string,
  path: string,
): Promise<Article | null> {
  const other = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM articles
          WHERE publisher_id = ? AND site_path IN (?, ?) AND ${PUBLISHED}
          ORDER BY site_path = ? DESC, published_at DESC LIMIT 1`,
    args: [publisherId, path, other, path],
  });
  return rs.rows[0] ? toArticle(rs.rows[0]) : null;
}

/**
 * Gives a publisher's chapters their URL on its host (`origin` + their site path), or none when the
 * publisher has no host: chapters are uploads, so their host page is where they are cited.
 */
export async function setChapterUrls(
  db: Client,
  publisherId: string,
  origin: string | null,
): Promise<void> {
  await db.execute({
    sql:
      // Chapters through the book index: by site path the planner read every article of the
      // publisher (kind lies past the body: 200 ms warm, 1.6 s cold at 100k, on every start).
      `UPDATE articles INDEXED BY articles_by_book
          SET canonical_url = CASE WHEN ?1 IS NULL THEN NULL ELSE ?1 || site_path END
          WHERE publisher_id = ?2 AND book_id IS NOT NULL AND kind = 'chapter' AND site_path IS NOT NULL
            AND canonical_url IS NOT (CASE WHEN ?1 IS NULL THEN NULL ELSE ?1 || site_path END)`,
    args: [origin, publisherId],
  });
}

/** Fills `site_path` of rows stored before it existed, `batch` at a time, awaiting `between` between batches; returns how many. */
export async function backfillSitePaths(
  db: Client,
  options: { batch: number; between?: () => Promise<void> },
): Promise<number> {
  let done = 0;
  while (true) {
    if (done > 0) await options.between?.();
    const rs = await db.execute({
      sql: `SELECT id, url, canonical_url, kind, book_id, chapter_no FROM articles
            WHERE site_path IS NULL LIMIT ?`,
      args: [options.batch],
    });
    const updates = rs.rows.map((r) => ({
      sql: "UPDATE articles SET site_path = ? WHERE id = ?",
      args: [
        sitePathOf({
          url: String(r.url),
          canonicalUrl: r.canonical_url === null ? null : String(r.canonical_url),
          kind: String(r.kind) as "article" | "chapter",
          bookId: r.book_id === null ? null : String(r.book_id),
          chapterNo: r.chapter_no === null ? null : Number(r.chapter_no),
        }) ?? "",
        String(r.id),
      ],
    }));
    if (updates.length) await db.batch(updates, "write");
    done += updates.length;
    if (rs.rows.length < options.batch) return done;
  }
}

/**
 * Published articles by id, in the order asked, skipping unknown and unpublished ids. With `withBody: false` the body is
 * not read and comes back empty: search results never show it, and bodies are most of the bytes.
 */
export async function getArticles(
  db: Client,
  publisherId: string,
  ids: string[],
  options: { withBody?: boolean } = {},
): Promise<Article[]> {
  if (ids.length === 0) return [];
  const columns = options.withBody === false ? COLUMNS.replace("body,", "'' AS body,") : COLUMNS;
  const rs = await db.execute({
    // `+publisher_id` keeps the planner on the primary key: with bound parameters it otherwise
    // chose the publisher index and scanned every article of the publisher.
    sql: `SELECT ${columns} FROM articles WHERE +publisher_id = ? AND ${PUBLISHED} AND id IN (${
      ids.map(() => "?").join(",")
    })`,
    args: [publisherId, ...ids],
  });
  const byId = new Map(rs.rows.map((r) => [String(r.id), toArticle(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Most recent published articles first, optionally only those published at or after `since`. */
export async function listRecent(
  db: Client,
  publisherId: string,
  options: { limit: number; since?: string; tag?: string; offset?: number },
): Promise<Article[]> {
  const where = ["a.publisher_id = ?", `a.${PUBLISHED}`];
  const args: (string | number)[] = [publisherId];
  if (options.since) {
    where.push("a.published_at >= ?");
    args.push(Date.parse(options.since));
  }
  const join = options.tag
    ? "JOIN article_tags t ON t.article_id = a.id AND t.publisher_id = a.publisher_id AND t.tag = ?"
    : "";
  if (options.tag) args.unshift(options.tag);
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS.replace(/(\w+)/g, "a.$1")} FROM articles a ${join}
          WHERE ${where.join(" AND ")}
          ORDER BY a.published_at DESC, a.id LIMIT ? OFFSET ?`,
    args: [...args, options.limit, options.offset ?? 0],
  });
  return rs.rows.map(toArticle);
}

/** Changes an article's policy and/or per-article price override. */
export async function setArticlePolicy(
  db: Client,
  publisherId: string,
  id: string,
  patch: { policy?: Policy; priceMicros?: number | null; now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE articles SET policy = COALESCE(?, policy),
            price_micros = CASE WHEN ? THEN ? ELSE price_micros END, updated_at = ?
          WHERE publisher_id = ? AND id = ?`,
    args: [
      patch.policy ?? null,
      patch.priceMicros !== undefined,
      patch.priceMicros ?? null,
      patch.now.getTime(),
      publisherId,
      id,
    ],
  });
  return rs.rowsAffected > 0;
}

/**
 * Unpublishes or republishes an article (an unpublished one keeps the time it was unpublished);
 * false when the publisher has no article with that id.
 */
export async function setArticlePublished(
  db: Client,
  publisherId: string,
  id: string,
  change: { published: boolean; now: Date },
): Promise<boolean> {
  const at = change.now.getTime();
  const rs = await db.execute({
    sql: `UPDATE articles SET
            unpublished_at = CASE WHEN ? THEN NULL ELSE COALESCE(unpublished_at, ?) END,
            updated_at = CASE WHEN (unpublished_at IS NULL) = ? THEN updated_at ELSE ? END
          WHERE publisher_id = ? AND id = ?`,
    args: [change.published, at, change.published, at, publisherId, id],
  });
  return rs.rowsAffected > 0;
}

/** Unpublishes a published article; false when it was unpublished already (or is unknown). */
export async function unpublishArticle(
  db: Client,
  publisherId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE articles SET unpublished_at = ?, updated_at = ?
          WHERE publisher_id = ? AND id = ? AND unpublished_at IS NULL`,
    args: [now.getTime(), now.getTime(), publisherId, id],
  });
  return rs.rowsAffected > 0;
}

function normaliseTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0))];
}

function contentHash(input: ArticleInput, tags: string[]): Promise<string> {
  return sha256Hex(JSON.stringify([
    input.title,
    input.author ?? "",
    input.publishedAt ?? "",
    input.summary ?? "",
    tags,
    input.body,
    input.canonicalUrl ?? "",
    input.policy ?? null,
    input.priceMicros ?? null,
  ]));
}

// deno-lint-ignore no-explicit-any
export function toArticle(r: any): Article {
  return {
    id: String(r.id),
    publisherId: String(r.publisher_id),
    url: String(r.url),
    canonicalUrl: r.canonical_url === null ? null : String(r.canonical_url),
    title: String(r.title),
    author: String(r.author),
    publishedAt: r.published_at === null ? null : new Date(Number(r.published_at)).toISOString(),
    summary: String(r.summary),
    tags: JSON.parse(String(r.tags)),
    body: String(r.body),
    policy: String(r.policy) as Policy,
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
    kind: String(r.kind) as "article" | "chapter",
    bookId: r.book_id === null ? null : String(r.book_id),
    chapterNo: r.chapter_no === null ? null : Number(r.chapter_no),
    contentHash: String(r.content_hash),
    updatedAt: new Date(Number(r.updated_at)).toISOString(),
  };
}

/** Published article counts (articles and book chapters) of every publisher that has any. */
export async function countsByPublisher(
  db: Client,
): Promise<Map<string, { articles: number; chapters: number }>> {
  const rs = await db.execute(
    `SELECT publisher_id, kind, COUNT(*) AS n FROM articles WHERE ${PUBLISHED}
     GROUP BY publisher_id, kind`,
  );
  const out = new Map<string, { articles: number; chapters: number }>();
  for (const r of rs.rows) {
    const entry = out.get(String(r.publisher_id)) ?? { articles: 0, chapters: 0 };
    if (r.kind === "chapter") entry.chapters = Number(r.n);
    else entry.articles = Number(r.n);
    out.set(String(r.publisher_id), entry);
  }
  return out;
}

/** The publisher's most used tags over its published articles, most used first. */
export async function topTags(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<{ tag: string; count: number }[]> {
  const rs = await db.execute({
    sql: `SELECT t.tag, COUNT(*) AS n FROM article_tags t
          JOIN articles a ON a.id = t.article_id AND a.${PUBLISHED}
          WHERE t.publisher_id = ? GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT ?`,
    args: [publisherId, options.limit],
  });
  return rs.rows.map((r) => ({ tag: String(r.tag), count: Number(r.n) }));
}

/**
 * The publisher's published articles with terms of their own (a policy other than OBSERVE, or an
 * own price): host path, policy and price, up to `limit` (license.xml states them one by one).
 */
export async function ownTermsPaths(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<{ path: string; policy: Policy; priceMicros: number | null }[]> {
  const rs = await db.execute({
    sql: `SELECT site_path, policy, price_micros FROM articles WHERE publisher_id = ?
            AND (policy != 'OBSERVE' OR price_micros IS NOT NULL)
            AND site_path IS NOT NULL AND site_path != '' AND ${PUBLISHED}
          ORDER BY site_path LIMIT ?`,
    args: [publisherId, options.limit],
  });
  return rs.rows.map((r) => ({
    path: String(r.site_path),
    policy: String(r.policy) as Policy,
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
  }));
}
