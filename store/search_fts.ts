/**
 * The full-text index's queries (`articles_fts`, FTS5, and its `articles_fts_vocab` table), run
 * on the serving thread's connection or on a search thread's own read-only one
 * (search/fts_threads.ts). search/fts.ts builds the MATCH expression and decides what to ask.
 */
import type { Client } from "@libsql/client";
import { createEmbeddedClient } from "./embedded.ts";
import { ELIGIBLE_FROM, ELIGIBLE_SQL } from "./eligible.ts";

/**
 * SQLite page cache of a search thread's connection (KiB). The default 2 MB holds little of a 100k
 * catalog's FTS postings, so each search read them again through the OS: with 32 MB the full-text
 * query at 100k is p50 6.2 → 4.0 ms, a fifth less in all (docs/PERFORMANCE.md, step 42).
 */
const SEARCH_CACHE_KIB = 32 * 1024;

/** A search thread's own connection to the store file, which may only read. */
export async function openReadOnly(path: string, timeoutMs: number): Promise<Client> {
  const db = createEmbeddedClient(path, { timeoutMs });
  await db.execute("PRAGMA query_only = 1");
  await db.execute(`PRAGMA cache_size = -${SEARCH_CACHE_KIB}`);
  return db;
}

/** Gives a search connection's page cache back (SQLite frees every page it can). */
export async function releaseCache(db: Client): Promise<void> {
  await db.execute("PRAGMA shrink_memory");
}

/** Documents per term (stem) for these terms; a term with none is left out. */
export async function termDocs(db: Client, terms: string[]): Promise<Map<string, number>> {
  if (terms.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT term, doc FROM articles_fts_vocab WHERE term IN (${
      terms.map(() => "?").join(",")
    })`,
    args: terms,
  });
  return new Map(rs.rows.map((r) => [String(r.term), Number(r.doc)]));
}

/**
 * The `fetch` best FTS rows for `match`, ranked by bm25 with these column weights (best first),
 * each with whether the publisher may search it (`ok`). Ranks inside FTS first (cheap, bounded),
 * then joins for eligibility; LEFT JOINs give one row per ranked row, so fewer rows than `fetch`
 * means FTS has no more. The joins' order and the unary + pin the plan: left alone, SQLite may
 * scan every article of the publisher.
 */
export async function ftsRanked(
  db: Client,
  publisherId: string,
  match: string,
  options: { weights: number[]; fetch: number },
): Promise<{ articleId: string; bm25: number; ok: boolean }[]> {
  const weights = options.weights.map((w) => Number(w) || 0).join(", ");
  const rs = await db.execute({
    sql: `SELECT d.article_id AS id, f.score AS score,
            (+a.publisher_id = ? AND ${ELIGIBLE_SQL}) AS ok FROM (
            SELECT rowid, bm25(articles_fts, ${weights}) AS score
            FROM articles_fts WHERE articles_fts MATCH ? ORDER BY score LIMIT ?
          ) f
          LEFT JOIN search_docs d ON d.doc = f.rowid
          LEFT JOIN ${ELIGIBLE_FROM} ON a.id = d.article_id
          LEFT JOIN books b ON b.id = a.book_id
          ORDER BY f.score`,
    args: [publisherId, match, options.fetch],
  });
  return rs.rows.map((r) => ({
    articleId: String(r.id),
    bm25: Number(r.score),
    ok: Number(r.ok) === 1,
  }));
}

/** Title and the start of the body of a publisher's articles, for pseudo-relevance feedback. */
export async function feedbackTexts(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT id, title, substr(body, 1, 4000) AS body FROM articles
          WHERE +publisher_id = ? AND id IN (${ids.map(() => "?").join(",")})`,
    args: [publisherId, ...ids],
  });
  return new Map(rs.rows.map((r) => [String(r.id), `${r.title}\n${r.body}`]));
}
