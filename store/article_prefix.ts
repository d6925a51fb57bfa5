/**
 * Candidates for MCP argument completion (server/surfaces/mcp/completions.ts): published articles and tags
 * that start with what the client typed. Bodies are never read. BLOCKED articles are left out here
 * already; the caller still runs the access decision on every candidate before showing it.
 */
import { type Article, COLUMNS, PUBLISHED, toArticle } from "./articles.ts";
import type { Client } from "./db.ts";

const NO_BODY = COLUMNS.replace("body,", "'' AS body,");
const OPEN = `${PUBLISHED} AND policy != 'BLOCKED'`;

/** `prefix` as a LIKE pattern: its own % and _ match only themselves. */
function startsWith(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Published articles whose id starts with `prefix`, or whose title or one of its words does
 * (case-insensitive), newest first.
 */
export async function articlesByPrefix(
  db: Client,
  publisherId: string,
  options: { prefix: string; limit: number },
): Promise<Article[]> {
  const like = startsWith(options.prefix);
  const rs = await db.execute({
    sql: `SELECT ${NO_BODY} FROM articles WHERE publisher_id = ? AND ${OPEN}
          AND (id LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\')
          ORDER BY published_at DESC, id LIMIT ?`,
    args: [publisherId, like, like, `% ${like}`, options.limit],
  });
  return rs.rows.map(toArticle);
}

/** A tag starting with the prefix, how many open articles carry it, and the newest of them. */
export interface TagCandidate {
  tag: string;
  count: number;
  articles: Article[];
}

/**
 * The `tags` most used tags starting with `prefix` (case-insensitive), most used first, each with
 * its newest `perTag` published, not BLOCKED articles.
 */
export async function tagsByPrefix(
  db: Client,
  publisherId: string,
  options: { prefix: string; tags: number; perTag: number },
): Promise<TagCandidate[]> {
  const cols = COLUMNS.replace(/(\w+)/g, "a.$1").replace("a.body,", "'' AS body,");
  const rs = await db.execute({
    sql: `WITH matching AS (
            SELECT t.tag AS tag, COUNT(*) AS n FROM article_tags t
            JOIN articles a ON a.id = t.article_id AND a.${PUBLISHED} AND a.policy != 'BLOCKED'
            WHERE t.publisher_id = ?1 AND t.tag LIKE ?2 ESCAPE '\\'
            GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT ?3
          ), ranked AS (
            SELECT m.tag AS m_tag, m.n AS m_n, ${cols}, ROW_NUMBER() OVER (
              PARTITION BY m.tag ORDER BY a.published_at DESC, a.id) AS rn
            FROM matching m
            JOIN article_tags t ON t.publisher_id = ?1 AND t.tag = m.tag
            JOIN articles a ON a.id = t.article_id AND a.${PUBLISHED} AND a.policy != 'BLOCKED'
          )
          SELECT * FROM ranked WHERE rn <= ?4 ORDER BY m_n DESC, m_tag, rn`,
    args: [publisherId, startsWith(options.prefix), options.tags, options.perTag],
  });
  const out: TagCandidate[] = [];
  for (const r of rs.rows) {
    const tag = String(r.m_tag);
    if (out.at(-1)?.tag !== tag) out.push({ tag, count: Number(r.m_n), articles: [] });
    out.at(-1)!.articles.push(toArticle(r));
  }
  return out;
}
