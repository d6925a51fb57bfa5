/** Pages of a publisher's catalog for the management API (no bodies), filtered and counted. */
import type { Policy } from "./vocabulary.ts";
import type { Client } from "./db.ts";

/** An article as a management listing shows it. */
export interface ArticleListing {
  id: string;
  /** The stored URL (a chapter's `book:…` key: rules match it; see `publicUrl`). */
  url: string;
  /** What surfaces show: a chapter's page on the publisher's site, else the URL. */
  publicUrl: string;
  title: string;
  author: string;
  publishedAt: string | null;
  tags: string[];
  policy: Policy;
  priceMicros: number | null;
  kind: "article" | "chapter";
  bookId: string | null;
  chapterNo: number | null;
  updatedAt: string;
  /** False once the publisher unpublished it: agents no longer see it. */
  published: boolean;
  unpublishedAt: string | null;
}

/** Filters of a listing that the store applies (`policy` is the stored policy). */
export interface ArticleFilters {
  policy?: Policy;
  kind?: "article" | "chapter";
  published?: boolean;
  /** Words that must all appear in the title or the URL (case-insensitive). */
  q?: string;
}

/** Filters and a page. */
export interface ArticlePageQuery extends ArticleFilters {
  limit: number;
  offset: number;
}

/** What evaluating an article's rules needs, for every article that passes the filters. */
export interface ArticleRuleFacts {
  id: string;
  url: string;
  publishedAt: string | null;
  policy: Policy;
  priceMicros: number | null;
}

/** One page, most recently published first, and how many articles match the filters in all. */
export async function listArticlePage(
  db: Client,
  publisherId: string,
  query: ArticlePageQuery,
): Promise<{ articles: ArticleListing[]; total: number }> {
  const { filter, args } = where(publisherId, query);
  const [page, count] = await db.batch([
    {
      sql: `SELECT ${COLUMNS} FROM articles WHERE ${filter}
            ORDER BY published_at DESC, id LIMIT ? OFFSET ?`,
      args: [...args, query.limit, query.offset],
    },
    { sql: `SELECT COUNT(*) AS n FROM articles WHERE ${filter}`, args },
  ], "read");
  return { total: Number(count.rows[0].n), articles: page.rows.map(toListing) };
}

/**
 * The rule facts of every article passing the filters, in listing order: for filters the store
 * cannot apply (the effective policy is decided by content rules, in the server).
 */
export async function listArticleRuleFacts(
  db: Client,
  publisherId: string,
  filters: ArticleFilters,
): Promise<ArticleRuleFacts[]> {
  const { filter, args } = where(publisherId, filters);
  const rs = await db.execute({
    sql: `SELECT id, url, published_at, policy, price_micros FROM articles WHERE ${filter}
          ORDER BY published_at DESC, id`,
    args,
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    url: String(r.url),
    publishedAt: r.published_at === null ? null : new Date(Number(r.published_at)).toISOString(),
    policy: String(r.policy) as Policy,
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
  }));
}

/** Listings of the publisher's articles by id, in the order asked, skipping unknown ids. */
export async function getArticleListings(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<ArticleListing[]> {
  if (ids.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM articles WHERE +publisher_id = ? AND id IN (${
      ids.map(() => "?").join(",")
    })`,
    args: [publisherId, ...ids],
  });
  const byId = new Map(rs.rows.map((r) => [String(r.id), toListing(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The publisher's article at `url` (its URL or canonical URL), or, for a bare path, the first
 * article whose URL has exactly that path; null when there is none.
 */
export async function findArticleListingByUrl(
  db: Client,
  publisherId: string,
  url: string,
): Promise<ArticleListing | null> {
  if (!url.startsWith("/")) {
    const rs = await db.execute({
      sql: `SELECT ${COLUMNS} FROM articles WHERE publisher_id = ?2 AND url = ?1
            UNION ALL SELECT ${COLUMNS} FROM articles WHERE publisher_id = ?2 AND canonical_url = ?1
            LIMIT 1`,
      args: [url, publisherId],
    });
    return rs.rows[0] ? toListing(rs.rows[0]) : null;
  }
  // Candidates end with the path; the exact path is checked on the parsed URL.
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM articles WHERE publisher_id = ? AND url LIKE ? ESCAPE '\\'
          ORDER BY published_at DESC, id LIMIT 50`,
    args: [publisherId, `%${url.replace(/[\\%_]/g, (c) => `\\${c}`)}`],
  });
  const found = rs.rows.map(toListing).find((a) => pathOf(a.url) === url);
  return found ?? null;
}

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

function where(publisherId: string, filters: ArticleFilters) {
  const clauses = ["publisher_id = ?"];
  const args: (string | number)[] = [publisherId];
  if (filters.policy) {
    clauses.push("policy = ?");
    args.push(filters.policy);
  }
  if (filters.kind) {
    clauses.push("kind = ?");
    args.push(filters.kind);
  }
  if (filters.published !== undefined) {
    clauses.push(filters.published ? "unpublished_at IS NULL" : "unpublished_at IS NOT NULL");
  }
  for (const word of (filters.q ?? "").split(/\s+/).filter(Boolean).slice(0, 8)) {
    const like = `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    clauses.push("(title LIKE ? ESCAPE '\\' OR url LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  return { filter: clauses.join(" AND "), args };
}

/** One article's listing, or null when the publisher has no article with that id. */
export async function getArticleListing(
  db: Client,
  publisherId: string,
  id: string,
): Promise<ArticleListing | null> {
  const rs = await db.execute({
    sql: `SELECT ${COLUMNS} FROM articles WHERE publisher_id = ? AND id = ?`,
    args: [publisherId, id],
  });
  return rs.rows[0] ? toListing(rs.rows[0]) : null;
}

const COLUMNS =
  "id, url, title, author, published_at, tags, policy, price_micros, kind, book_id, " +
  "chapter_no, updated_at, unpublished_at, canonical_url";

// deno-lint-ignore no-explicit-any
function toListing(r: any): ArticleListing {
  return {
    id: String(r.id),
    url: String(r.url),
    publicUrl: String(r.kind === "chapter" ? r.canonical_url ?? r.url : r.url),
    title: String(r.title),
    author: String(r.author),
    publishedAt: r.published_at === null ? null : new Date(Number(r.published_at)).toISOString(),
    tags: JSON.parse(String(r.tags)),
    policy: String(r.policy) as Policy,
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
    kind: String(r.kind) as "article" | "chapter",
    bookId: r.book_id === null ? null : String(r.book_id),
    chapterNo: r.chapter_no === null ? null : Number(r.chapter_no),
    updatedAt: new Date(Number(r.updated_at)).toISOString(),
    published: r.unpublished_at === null,
    unpublishedAt: r.unpublished_at === null
      ? null
      : new Date(Number(r.unpublished_at)).toISOString(),
  };
}
