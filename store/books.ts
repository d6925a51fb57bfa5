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
