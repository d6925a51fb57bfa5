/** The full-text leg: FTS5 bm25 over title, summary, tags and body, scoped to one publisher. */
import type { Client } from "@libsql/client";
import { ELIGIBLE_FROM, ELIGIBLE_SQL } from "./eligible.ts";
import { porterStem } from "./porter.ts";
import { isStopWord, words } from "./text.ts";

/** bm25 column weights (pub, title, summary, tags, body); cross-validated on Cranfield TRAIN. */
export const FTS_WEIGHTS = [0, 8, 2, 2, 1];
const MAX_QUERY_TERMS = 32;

/** The token that scopes FTS rows to a publisher; the 0002 triggers write the same shape. */
export function publisherToken(publisherId: string): string {
  const hex = [...new TextEncoder().encode(publisherId)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return `p${hex}x`;
}

/**
 * A safe FTS5 MATCH expression for user text, or null when it has no words. Only letter and digit
 * runs survive and each is quoted, so FTS operators (NEAR, AND, *, -, ^, :, quotes, parentheses)
 * in the text are plain words or gone; terms are ORed so bm25 ranks partial matches too.
 */
export function ftsQuery(
  publisherId: string,
  text: string,
  options: { skip?: Set<string>; scoped?: boolean } = {},
): string | null {
  const chosen = queryWords(text);
  const kept = chosen.filter((w) => !options.skip?.has(w));
  if (kept.length > 0) chosen.splice(0, chosen.length, ...kept);
  if (chosen.length === 0) return null;
  const terms = chosen.map((w) => `"${w.replaceAll('"', '""')}"`).join(" OR ");
  const match = `{title summary tags body} : (${terms})`;
  // Unscoped, other publishers' rows are ranked too; ftsSearch's eligibility column drops them.
  if (options.scoped === false) return match;
  return `pub : "${publisherToken(publisherId)}" AND ${match}`;
}

/** The words of a query that go to FTS: stop words dropped unless nothing else is left. */
export function queryWords(text: string): string[] {
  const all = [...new Set(words(text.slice(0, 2000)))];
  const content = all.filter((w) => !isStopWord(w));
  return (content.length > 0 ? content : all).slice(0, MAX_QUERY_TERMS);
}

/** A term in more than this share of documents is skipped (bm25 idf near 0, postings huge). */
export const COMMON_TERM_SHARE = 0.3;

/** Query words whose stem occurs in more than COMMON_TERM_SHARE of all indexed documents. */
export async function commonWords(
  db: Client,
  text: string,
  options: { docs: number; known?: Map<string, number> },
): Promise<Set<string>> {
  const list = queryWords(text);
  if (list.length < 2 || options.docs < 1000) return new Set();
  const stems = new Map(list.map((w) => [porterStem(w), w]));
  // fts5vocab counts a term's documents by walking its whole postings list (2-3 ms for a few
  // words at 100k), so counts already read are kept by the caller (`known`, stem → documents).
  const known = options.known ?? new Map<string, number>();
  const unknown = [...stems.keys()].filter((t) => !known.has(t));
  if (unknown.length > 0) {
    const rs = await db.execute({
      sql: `SELECT term, doc FROM articles_fts_vocab WHERE term IN (${
        unknown.map(() => "?").join(",")
      })`,
      args: unknown,
    });
    for (const t of unknown) known.set(t, 0);
    for (const r of rs.rows) known.set(String(r.term), Number(r.doc));
  }
  const common = [...stems].filter(([t]) => known.get(t)! > COMMON_TERM_SHARE * options.docs)
    .map(([, w]) => w);
  return new Set(common);
}

/** Ranked eligible articles matching `text` (best first); score is bm25 negated (higher is better). */
export async function ftsSearch(
  db: Client,
  publisherId: string,
  text: string,
  options: { limit: number; weights?: number[]; skip?: Set<string>; scoped?: boolean },
): Promise<{ articleId: string; score: number }[]> {
  const weights = (options.weights ?? FTS_WEIGHTS).map((w) => Number(w) || 0).join(", ");
  const match = ftsQuery(publisherId, text, { skip: options.skip, scoped: options.scoped });
  if (!match) return [];
  // Rank inside FTS first (cheap, bounded), then join for eligibility; fetch more if some were
  // filtered out so ineligible articles never crowd out the page. Every ranked row comes back
  // with its verdict (LEFT JOINs: one row per ranked row), so fewer rows than fetched means FTS
  // has no more (no count query). The joins' order and the unary + pin the plan: left alone,
  // SQLite may scan every article of the publisher.
  let fetch = options.limit * 2 + 20;
  for (;;) {
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
      args: [publisherId, match, fetch],
    });
    const hits = rs.rows.filter((r) => Number(r.ok) === 1).slice(0, options.limit)
      .map((r) => ({ articleId: String(r.id), score: -Number(r.score) }));
    if (hits.length >= options.limit || rs.rows.length < fetch || fetch >= 5000) return hits;
    fetch *= 4;
  }
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
