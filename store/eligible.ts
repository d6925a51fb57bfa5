/** The rag eligibility rule in SQL (SPEC "Content license"): what search may ever return. */
import type { Client } from "@libsql/client";

/**
 * A condition over `a` (articles) LEFT JOIN `b` (books): published, not BLOCKED, and a chapter only
 * when its book's rights ceiling grants rag. A ceiling that is not valid JSON or omits rag denies
 * it. Unpublishing (like BLOCKED) takes effect at once: both legs check this on every query.
 */
export const ELIGIBLE_SQL = `a.unpublished_at IS NULL AND a.policy != 'BLOCKED' AND
  (a.kind != 'chapter' OR a.book_id IS NULL OR
  (b.id IS NOT NULL AND json_valid(b.rights_ceiling)
   AND json_extract(b.rights_ceiling, '$.rag') IN (1, 'true', 'granted')))`;

/**
 * `articles a` read through the index that holds every column `ELIGIBLE_SQL` asks of it (SQLite
 * picks the primary key for an id lookup otherwise, and walks each body's overflow pages).
 */
export const ELIGIBLE_FROM = "articles a INDEXED BY articles_eligibility";

/** The subset of `ids` that belong to the publisher and may be searched, as a set. */
export async function eligibleIds(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  // The unary + keeps the planner off the publisher's rows; the covering index (migration 0019)
  // answers without reading article rows, whose eligibility columns lie past the body.
  const rs = await db.execute({
    sql: `SELECT a.id FROM ${ELIGIBLE_FROM} LEFT JOIN books b ON b.id = a.book_id
          WHERE +a.publisher_id = ? AND a.id IN (${ids.map(() => "?").join(",")})
          AND ${ELIGIBLE_SQL}`,
    args: [publisherId, ...ids],
  });
  return new Set(rs.rows.map((r) => String(r.id)));
}
