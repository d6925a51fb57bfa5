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

/** The subset of `ids` that belong to the publisher and may be searched, as a set. */
export async function eligibleIds(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  // The unary + keeps the planner on the primary key instead of scanning the publisher's rows.
  const rs = await db.execute({
    sql: `SELECT a.id FROM articles a LEFT JOIN books b ON b.id = a.book_id
          WHERE +a.publisher_id = ? AND a.id IN (${ids.map(() => "?").join(",")})
          AND ${ELIGIBLE_SQL}`,
    args: [publisherId, ...ids],
  });
  return new Set(rs.rows.map((r) => String(r.id)));
}
