/**
 * Fusion of the full-text and semantic legs: weighted reciprocal rank (Cormack, Clarke, Büttcher
 * 2009) or a weighted sum of per-query normalised scores (CombSUM with min-max or z-score).
 */

/** Which legs contributed hits. */
export type SearchMode = "hybrid" | "fts" | "semantic" | "none";

/** How each leg's ranking becomes a contribution: by rank (rrf) or by normalised score. */
export type FusionMethod = "rrf" | "minmax" | "zscore";

/** Fusion method (rrf when absent), its RRF constant `k` and per-leg weights. */
export interface FusionOptions {
  method?: FusionMethod;
  k: number;
  ftsWeight: number;
  semanticWeight: number;
}

/**
 * Defaults (docs/decisions/search.md): the semantic weight was chosen by 5-fold cross-validation
 * on the Cranfield TRAIN queries and earns it on held-out folds (+0.022 nDCG@10, p 0.03); k is
 * RRF's own 60 (Cormack, Clarke, Büttcher 2009), since the tuned 20 added nothing significant.
 */
export const DEFAULT_FUSION: FusionOptions = {
  method: "rrf",
  k: 60,
  ftsWeight: 1,
  semanticWeight: 4,
};

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
  const method = options.method ?? "rrf";
  const hits = new Map<string, FusedHit>();
  const add = (leg: LegHit[], weight: number, isSemantic: boolean) => {
    const norm = normalize(leg.map((h) => h.score), method, options.k);
    const floor = method === "zscore" && norm.length > 0 ? Math.min(...norm) : 0;
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
