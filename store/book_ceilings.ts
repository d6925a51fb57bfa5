/** Rights ceilings of books, looked up in bulk for search results. */
import type { Client } from "./db.ts";
import type { Rights } from "./vocabulary.ts";

/** The rights ceilings of the books these articles belong to, by book id. */
export async function bookCeilings(
  db: Client,
  publisherId: string,
  articles: { bookId: string | null }[],
): Promise<Map<string, Rights>> {
  const ids = [...new Set(articles.flatMap((a) => a.bookId ?? []))];
  if (ids.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT id, rights_ceiling FROM books WHERE +publisher_id = ? AND id IN (${
      ids.map(() => "?").join(",")
    })`,
    args: [publisherId, ...ids],
  });
  return new Map(rs.rows.map((r) => [String(r.id), JSON.parse(String(r.rights_ceiling))]));
}
