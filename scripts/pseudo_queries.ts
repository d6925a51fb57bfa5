/**
 * Tried for issue 41 and not shipped (docs/decisions/search.md "Tried and dropped: the semantic
 * weight from pseudo-queries"): how much the semantic leg should count, judged on a catalog's own
 * articles. A sample asks for some of its members by a part held out of them (the title, or the
 * first sentence when the title is too short to ask with); both legs rank the sample for each
 * pseudo-query (full text as BM25 over the sample, the semantic leg with the publisher's own
 * model) and the semantic weight that fuses them best wins. `eval:search:suite --pseudo-queries`
 * prints its choice beside the weight each collection's real queries prefer.
 */
import { fuseScored, type FusionOptions, type LegHit } from "../search/fusion.ts";
import { terms } from "../search/text.ts";
import { SEMANTIC_WEIGHTS } from "./fusion_candidates.ts";
import { firstSentence } from "./search_collections.ts";

/** Articles sampled and pseudo-queries asked (ties between weights go to the one nearest 1). */
export const CALIBRATION_SAMPLE = 1000;
export const CALIBRATION_QUERIES = 200;
/** Fewer pseudo-queries than this say too little: the untuned weight stays. */
const MIN_QUERIES = 30;
/** A title shorter than this (in words) asks too little; the first sentence asks instead. */
const TITLE_WORDS = 3;
/** The held-out rest must keep at least this many words to be findable. */
const REST_WORDS = 8;
/** Candidates per leg, as the search's own legs contribute at its default depth. */
const DEPTH = 100;
/** BM25 parameters as FTS5 uses them (k1 1.2, b 0.75). */
const K1 = 1.2, B = 0.75;

/** A sampled article's text. */
export interface CalibrationDoc {
  title: string;
  body: string;
}

/** The chosen weight and what each weight scored (mean known-item nDCG@10 over pseudo-queries). */
export interface Calibration {
  semanticWeight: number;
  queries: number;
  scores: { weight: number; ndcg: number }[];
}

/** What calibration does when it has nothing to judge by: the untuned weight. */
export const UNCALIBRATED: Calibration = { semanticWeight: 1, queries: 0, scores: [] };

/**
 * A pseudo-query for an article and the text left to find it by: its title when it has at least
 * TITLE_WORDS words, else its first sentence; null when too little would be left.
 */
export function pseudoQuery(doc: CalibrationDoc): { query: string; rest: string } | null {
  const title = doc.title.trim();
  if (terms(title).length >= TITLE_WORDS && terms(doc.body).length >= REST_WORDS) {
    return { query: title, rest: doc.body };
  }
  const [lead, rest] = firstSentence(doc.body);
  if (terms(lead).length < TITLE_WORDS || terms(rest).length < REST_WORDS) return null;
  return { query: lead, rest: `${title}\n${rest}` };
}

/**
 * Chooses the semantic weight for `docs` (a sample of one publisher's articles) given the
 * publisher's embedder. Every `step`-th article becomes a pseudo-query, held out of its own text;
 * the rest of the sample stays whole. Yields to the event loop between stages (`turn`).
 */
export async function calibrate(
  docs: CalibrationDoc[],
  embed: (texts: string[]) => Promise<Float32Array[]>,
  options: { minSemanticScore: number; fusion: FusionOptions; turn?: () => Promise<void> },
): Promise<Calibration> {
  const turn = options.turn ?? (() => Promise.resolve());
  const step = Math.max(1, Math.floor(docs.length / CALIBRATION_QUERIES));
  const asks: { query: string; target: number }[] = [];
  const texts = docs.map((d, i) => {
    const pq = i % step === 0 && asks.length < CALIBRATION_QUERIES ? pseudoQuery(d) : null;
    if (!pq) return `${d.title}\n${d.body}`;
    asks.push({ query: pq.query, target: i });
    return pq.rest;
  });
  if (asks.length < MIN_QUERIES) return UNCALIBRATED;
  const bm25 = new Bm25(texts.map(terms));
  await turn();
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 100) {
    vectors.push(...await embed(texts.slice(i, i + 100)));
    await turn();
  }
  const queryVectors = await embed(asks.map((a) => a.query));
  const legs = asks.map((a, q) => ({
    fts: bm25.rank(terms(a.query), DEPTH),
    semantic: nearest(vectors, queryVectors[q], DEPTH, options.minSemanticScore),
  }));
  await turn();
  const scores = SEMANTIC_WEIGHTS.map((weight) => {
    const fusion = { ...options.fusion, semanticWeight: weight * options.fusion.semanticWeight };
    let sum = 0;
    legs.forEach((l, q) => {
      const rank = fuseScored(l.fts, l.semantic, fusion).slice(0, 10)
        .findIndex((h) => h.articleId === String(asks[q].target));
      if (rank >= 0) sum += 1 / Math.log2(rank + 2);
    });
    return { weight, ndcg: sum / asks.length };
  });
  const best = scores.reduce((a, b) =>
    b.ndcg > a.ndcg + 1e-9 ||
      (Math.abs(b.ndcg - a.ndcg) <= 1e-9 && Math.abs(Math.log2(b.weight || 1e-3)) <
          Math.abs(Math.log2(a.weight || 1e-3)))
      ? b
      : a
  );
  return { semanticWeight: best.weight, queries: asks.length, scores };
}

/** Cosine nearest documents (vectors are unit length or zero), those under `min` left out. */
function nearest(vectors: Float32Array[], q: Float32Array, depth: number, min: number): LegHit[] {
  const hits: LegHit[] = [];
  vectors.forEach((v, i) => {
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j] * q[j];
    if (s >= min && s > 0) hits.push({ articleId: String(i), score: s });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, depth);
}

/** BM25 over an in-memory sample, query words ORed as the full-text leg does. */
class Bm25 {
  readonly postings = new Map<string, [doc: number, tf: number][]>();
  readonly lengths: number[];
  readonly avg: number;
  constructor(docs: string[][]) {
    this.lengths = docs.map((d) => d.length);
    this.avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
    docs.forEach((d, i) => {
      const tf = new Map<string, number>();
      for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        const list = this.postings.get(t) ?? [];
        if (list.length === 0) this.postings.set(t, list);
        list.push([i, n]);
      }
    });
  }
  rank(query: string[], depth: number): LegHit[] {
    const n = this.lengths.length;
    const score = new Map<number, number>();
    for (const t of new Set(query)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [d, tf] of list) {
        const norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * this.lengths[d] / (this.avg || 1)));
        score.set(d, (score.get(d) ?? 0) + idf * norm);
      }
    }
    return [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, depth)
      .map(([d, s]) => ({ articleId: String(d), score: s }));
  }
}
