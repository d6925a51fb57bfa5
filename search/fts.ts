/** The full-text leg: FTS5 bm25 over title, summary, tags and body, scoped to one publisher. */
import type { Client } from "@libsql/client";
import { ftsRanked, termDocs } from "../store/search_fts.ts";
import { porterStem } from "./porter.ts";
import { isStopWord, words } from "./text.ts";

/**
 * bm25 column weights (pub, title, summary, tags, body): the title ×2, the rest alike. Chosen
 * leaving one collection out over nine (scripts/fts_weight_select.ts; ×2 in every fold among
 * 1, 2, 4 and 8): held out, the hybrid gains +0.019 nDCG@10 on headlined BBC articles searched by
 * their lead (p < 0.001) and +0.012 on Cranfield titles (p 0.011), and no collection loses
 * significantly. Issue 30's title ×8, fitted on Cranfield alone, had not carried to its held-out
 * folds (docs/decisions/search.md "Title weight").
 */
export const FTS_WEIGHTS = [0, 2, 1, 1, 1];
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
    const docs = await termDocs(db, unknown);
    for (const t of unknown) known.set(t, docs.get(t) ?? 0);
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
  const weights = options.weights ?? FTS_WEIGHTS;
  const match = ftsQuery(publisherId, text, { skip: options.skip, scoped: options.scoped });
  if (!match) return [];
  // Fetch more if some were filtered out, so ineligible articles never crowd out the page.
  let fetch = options.limit * 2 + 20;
  for (;;) {
    const rows = await ftsRanked(db, publisherId, match, { weights, fetch });
    const hits = rows.filter((r) => r.ok).slice(0, options.limit)
      .map((r) => ({ articleId: r.articleId, score: -r.bm25 }));
    if (hits.length >= options.limit || rows.length < fetch || fetch >= 5000) return hits;
    fetch *= 4;
  }
}
