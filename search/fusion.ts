/** Reciprocal rank fusion of the full-text and semantic legs (Cormack, Clarke, Büttcher 2009). */

/** Which legs contributed hits. */
export type SearchMode = "hybrid" | "fts" | "semantic" | "none";

/** RRF constant and per-leg weights; defaults tuned on the Cranfield training queries only. */
export interface FusionOptions {
  k: number;
  ftsWeight: number;
  semanticWeight: number;
}

/** Defaults from scripts/eval_cranfield.ts (TRAIN queries). */
export const DEFAULT_FUSION: FusionOptions = { k: 40, ftsWeight: 1, semanticWeight: 1.5 };

/** A fused hit: score = Σ weight / (k + rank), ranks from 1; `semantic` marks semantic-leg hits. */
export interface FusedHit {
  articleId: string;
  score: number;
  semantic: boolean;
}

/** Fuses two ranked id lists (best first) into one ranking. */
export function fuse(
  fts: string[],
  semantic: string[],
  options: FusionOptions = DEFAULT_FUSION,
): FusedHit[] {
  const hits = new Map<string, FusedHit>();
  const add = (ids: string[], weight: number, isSemantic: boolean) => {
    ids.forEach((id, i) => {
      const hit = hits.get(id) ?? { articleId: id, score: 0, semantic: false };
      hit.score += weight / (options.k + i + 1);
      hit.semantic ||= isSemantic;
      hits.set(id, hit);
    });
  };
  add(fts, options.ftsWeight, false);
  add(semantic, options.semanticWeight, true);
  return [...hits.values()].sort((a, b) =>
    b.score - a.score || (a.articleId < b.articleId ? -1 : 1)
  );
}

/** The mode for legs that returned these many hits. */
export function modeOf(ftsHits: number, semanticHits: number): SearchMode {
  if (ftsHits > 0 && semanticHits > 0) return "hybrid";
  if (ftsHits > 0) return "fts";
  if (semanticHits > 0) return "semantic";
  return "none";
}
