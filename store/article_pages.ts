/** Pages of a publisher's catalog for the management API (no bodies), filtered and counted. */
import type { Policy } from "./vocabulary.ts";
import type { Client } from "./db.ts";

/** An article as a management listing shows it. */
export interface ArticleListing {
  id: string;
  url: string;
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
}

/** Filters of a listing. */
export interface ArticlePageQuery {
  limit: number;
  offset: number;
  policy?: Policy;
  kind?: "article" | "chapter";
}

/** One page, most recently published first, and how many articles match the filters in all. */
export async function listArticlePage(
  db: Client,
  publisherId: string,
  query: ArticlePageQuery,
): Promise<{ articles: ArticleListing[]; total: number }> {
  const where = ["publisher_id = ?"];
  const args: (string | number)[] = [publisherId];
  if (query.policy) {
    where.push("policy = ?");
    args.push(query.policy);
  }
  if (query.kind) {
    where.push("kind = ?");
    args.push(query.kind);
  }
  const filter = where.join(" AND ");
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
  "id, url, title, author, published_at, tags, policy, price_micros, kind, book_id, chapter_no, updated_at";

// deno-lint-ignore no-explicit-any
function toListing(r: any): ArticleListing {
  return {
    id: String(r.id),
    url: String(r.url),
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
  };
}
