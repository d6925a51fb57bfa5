/** Persistence of uploaded books. */
import type { Rights } from "./publishers.ts";
import type { Client } from "./db.ts";

/** The author-contract rights ceiling of a publisher's book, or null when unknown. */
export async function bookCeiling(
  db: Client,
  publisherId: string,
  bookId: string,
): Promise<Rights | null> {
  const rs = await db.execute({
    sql: "SELECT rights_ceiling FROM books WHERE publisher_id = ? AND id = ?",
    args: [publisherId, bookId],
  });
  return rs.rows[0] ? JSON.parse(String(rs.rows[0].rights_ceiling)) : null;
}

/** The rights ceilings of the books these articles belong to, by book id. */
export async function bookCeilings(
  db: Client,
  publisherId: string,
  articles: { bookId: string | null }[],
): Promise<Map<string, Rights>> {
  const ids = [...new Set(articles.flatMap((a) => a.bookId ?? []))];
  if (ids.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT id, rights_ceiling FROM books WHERE publisher_id = ? AND id IN (${
      ids.map(() => "?").join(",")
    })`,
    args: [publisherId, ...ids],
  });
  return new Map(rs.rows.map((r) => [String(r.id), JSON.parse(String(r.rights_ceiling))]));
}
