/**
 * Fusion of the full-text and semantic legs: weighted reciprocal rank (Cormack, Clarke, Büttcher
 * 2009), a weighted sum of per-query normalised scores (CombSUM with min-max or z-score), or the
 * default, `adaptive`: z-score CombSUM with each leg weighted by how far its best candidate stands
 * out from the rest of its list in this query (docs/decisions/search.md "Adaptive fusion"), fused
 * head first: each leg's top `head` candidates are fused and ranked before the rest.
 */

/** Which legs contributed hits. */
export type SearchMode = "hybrid" | "fts" | "semantic" | "none";

/**
 * How each leg's ranking becomes a contribution: by rank (rrf), by normalised score (minmax,
 * zscore), or by z-score weighted per query by the leg's confidence (adaptive).
 */
export type FusionMethod = "rrf" | "minmax" | "zscore" | "adaptive";

/**
 * Fusion method (rrf when absent), its RRF constant `k`, per-leg weights, and `head`: when set,
 * each leg's first `head` candidates are fused among themselves (their scores normalised, and
 * the leg's confidence judged, within that head) and rank above every other candidate, whose own
 * fusion follows.
 */
export interface FusionOptions {
  method?: FusionMethod;
  k: number;
  ftsWeight: number;
  semanticWeight: number;
  head?: number;
}

/**
 * Defaults (docs/decisions/search.md "Adaptive fusion", "Head-first fusion"): no weight tuned on
 * any collection. A fixed semantic weight (×4 from Cranfield) put any semantic candidate above the
 * full-text leg's top hit on catalogs of headlines and short pieces; per-query confidence carries
 * from one catalog to the next. Over whole lists, a weak leg's long tail still outvoted the other
 * leg's top hits on a catalog of briefs; judging each leg by its top 20 was the choice of
 * leave-one-collection-out selection over nine collections (scripts/eval_search_suite.ts).
 */
export const DEFAULT_FUSION: FusionOptions = {
  method: "adaptive",
  k: 60,
  ftsWeight: 1,
  semanticWeight: 1,
  head: 20,
};

/**
 * A leg's confidence in this query: the z-score of its best candidate within its own list (how
 * far the top stands out: a score-distribution predictor of how well the leg does on the query).
 * A list with no spread, or a single hit, says little: the floor keeps it a small voice.
 */
export function confidence(scores: number[]): number {
  if (scores.length < 2) return CONFIDENCE_FLOOR;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);
  return sd > 0 ? Math.max(CONFIDENCE_FLOOR, (Math.max(...scores) - mean) / sd) : CONFIDENCE_FLOOR;
}
const CONFIDENCE_FLOOR = 0.1;

/** One leg's hit: higher scores are better; lists are best first. */
export interface LegHit {
  articleId: string;
  score: number;
}

/** A fused hit; `semantic` marks hits the semantic leg found. */
export interface FusedHit {
  articleId: string;
  score: number;
  semantic: boolean;
}

/**
 * Per-query normalised contributions of one best-first leg: rrf gives 1 / (k + rank) from rank 1,
 * minmax maps the scores onto [0, 1], zscore to standard deviations from their mean. Equal scores
 * give 1 (minmax) or 0 (zscore), so a leg with no spread still counts.
 */
export function normalize(scores: number[], method: FusionMethod, k = 60): number[] {
  if (method === "rrf") return scores.map((_, i) => 1 / (k + i + 1));
  if (method === "adaptive") return normalize(scores, "zscore");
  if (scores.length === 0) return [];
  if (method === "minmax") {
    const min = Math.min(...scores);
    const span = Math.max(...scores) - min;
    return scores.map((s) => span > 0 ? (s - min) / span : 1);
  }
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);
  return scores.map((s) => sd > 0 ? (s - mean) / sd : 0);
}

/**
 * Fuses two scored legs into one ranking. With a score method, an article missing from a leg
 * gets that leg's lowest normalised value (what it would at least have scored), not nothing:
 * otherwise z-scores below the mean would reward being absent.
 */
export function fuseScored(
  fts: LegHit[],
  semantic: LegHit[],
  options: FusionOptions = DEFAULT_FUSION,
): FusedHit[] {
  const head = options.head;
  if (head !== undefined && head > 0 && (fts.length > head || semantic.length > head)) {
    return headFirst(fts, semantic, head, { ...options, head: undefined });
  }
  const method = options.method ?? "rrf";
  const hits = new Map<string, FusedHit>();
  const add = (leg: LegHit[], weight: number, isSemantic: boolean) => {
    const scores = leg.map((h) => h.score);
    const norm = normalize(scores, method, options.k);
    const floor = (method === "zscore" || method === "adaptive") && norm.length > 0
      ? Math.min(...norm)
      : 0;
    if (method === "adaptive") weight *= confidence(scores);
    leg.forEach((h, i) => {
      const hit = hits.get(h.articleId) ?? { articleId: h.articleId, score: 0, semantic: false };
      if (!hits.has(h.articleId)) hits.set(h.articleId, hit);
      hit.score += weight * (norm[i] - floor);
      hit.semantic ||= isSemantic;
    });
  };
  add(fts, options.ftsWeight, false);
  add(semantic, options.semanticWeight, true);
  return [...hits.values()].sort((a, b) =>
    b.score - a.score || (a.articleId < b.articleId ? -1 : 1)
  );
}

/**
 * The legs' heads fused, then the rest of both lists fused and shifted below the heads' lowest
 * score (so scores still fall down the list); `semantic` marks any hit the semantic leg found.
 */
function headFirst(
  fts: LegHit[],
  semantic: LegHit[],
  head: number,
  options: FusionOptions,
): FusedHit[] {
  const top = fuseScored(fts.slice(0, head), semantic.slice(0, head), options);
  const seen = new Set<string>();
  for (const h of top) seen.add(h.articleId);
  const rest = fuseScored(fts.slice(head), semantic.slice(head), options)
    .filter((h) => !seen.has(h.articleId));
  const tailSemantic = new Set<string>();
  for (let i = head; i < semantic.length; i++) tailSemantic.add(semantic[i].articleId);
  for (const h of top) h.semantic ||= tailSemantic.has(h.articleId);
  if (rest.length === 0) return top;
  const shift = Math.min(0, top[top.length - 1].score - rest[0].score - 1);
  if (shift < 0) { for (const h of rest) h.score += shift; }
  return top.concat(rest);
}

/** Fuses two ranked id lists (best first) by rank; score methods see the rank as the score. */
export function fuse(
  fts: string[],
  semantic: string[],
  options: FusionOptions = DEFAULT_FUSION,
): FusedHit[] {
  const scored = (ids: string[]) => ids.map((articleId, i) => ({ articleId, score: -i }));
  return fuseScored(scored(fts), scored(semantic), options);
}

/** The mode for legs that returned these many hits. */
export function modeOf(ftsHits: number, semanticHits: number): SearchMode {
  if (ftsHits > 0 && semanticHits > 0) return "hybrid";
  if (ftsHits > 0) return "fts";
  if (semanticHits > 0) return "semantic";
  return "none";
}
