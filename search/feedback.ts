/**
 * Pseudo-relevance feedback: the top hits of a first pass are taken as relevant. For full text,
 * an RM3-like relevance model picks expansion words (Lavrenko & Croft 2001; Abdul-Jaleel et al.
 * 2004); for vectors, Rocchio moves the query towards the top articles' vectors.
 */
import { fuseScored, type FusionOptions, type LegHit } from "./fusion.ts";
import { isStopWord, stem, words } from "./text.ts";

/** Full-text feedback: expansion words from the top `docs` hits, mixed in with `weight`. */
export interface FtsFeedback {
  docs: number;
  terms: number;
  weight: number;
}

/**
 * Semantic feedback: the query plus `beta` times the mean of the top `docs` article vectors, taken
 * from the semantic leg's first pass or (`from: "fused"`) from both legs' first passes fused.
 */
export interface SemanticFeedback {
  docs: number;
  beta: number;
  from?: "semantic" | "fused";
}

/**
 * The `n` words with the highest relevance-model weight Σ_d w_d · tf(t, d) / |d| over the feedback
 * documents (w_d their first-pass scores, shifted to be positive and summing to 1), leaving out
 * stop words, words under 3 letters, numbers and any word sharing a stem with the query. Words
 * are grouped by stem and returned in the surface form seen most often.
 */
export function expansionTerms(
  query: string,
  docs: { text: string; score: number }[],
  n: number,
): string[] {
  if (n <= 0 || docs.length === 0) return [];
  const asked = new Set(words(query).map(stem));
  const low = Math.min(...docs.map((d) => d.score));
  const raw = docs.map((d) => d.score - low + 1e-6);
  const total = raw.reduce((a, b) => a + b, 0);
  const weight = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  docs.forEach((d, i) => {
    const list = words(d.text).filter((w) => w.length >= 3 && !isStopWord(w) && !/^\d+$/.test(w));
    if (list.length === 0) return;
    const share = raw[i] / total / list.length;
    for (const w of list) {
      const s = stem(w);
      if (asked.has(s)) continue;
      weight.set(s, (weight.get(s) ?? 0) + share);
      const f = forms.get(s) ?? new Map<string, number>();
      forms.set(s, f.set(w, (f.get(w) ?? 0) + 1));
    }
  });
  return [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n)
    .map(([s]) => [...forms.get(s)!].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0]);
}

/** Rocchio's query: normalise(q + beta · mean(docs)); q itself when there are no documents. */
export function rocchio(query: Float32Array, docs: Float32Array[], beta: number): Float32Array {
  const usable = docs.filter((d) => d.length === query.length);
  if (usable.length === 0 || beta === 0) return query;
  const out = new Float32Array(query.length);
  let norm = 0;
  for (let j = 0; j < query.length; j++) {
    let sum = 0;
    for (const d of usable) sum += d[j];
    out[j] = query[j] + beta * sum / usable.length;
    norm += out[j] * out[j];
  }
  if (norm === 0) return query;
  norm = Math.sqrt(norm);
  for (let j = 0; j < out.length; j++) out[j] /= norm;
  return out;
}

/**
 * How the first passes are fused to pick feedback documents: plain RRF as published (k = 60, equal
 * weights; Cormack, Clarke, Büttcher 2009), fixed rather than tuned so cross-validation cannot leak
 * through it. The final fusion leans on stage 2, which already holds the full-text leg's evidence,
 * so it weighs the semantic leg far more (DEFAULT_FUSION).
 */
export const FEEDBACK_FUSION: FusionOptions = {
  method: "rrf",
  k: 60,
  ftsWeight: 1,
  semanticWeight: 1,
};

/** Feedback per leg, each from its own first pass; null turns a leg's off. */
export interface FeedbackOptions {
  fts: FtsFeedback | null;
  semantic: SemanticFeedback | null;
}

/** Production feedback, chosen with the fusion by cross-validation (docs/decisions/search.md). */
export const DEFAULT_FEEDBACK: FeedbackOptions = {
  fts: null, // RM3 gains about 0.01 nDCG@10 but more than doubles a search's latency
  semantic: { docs: 3, beta: 4, from: "fused" },
};

/**
 * RM3's interpolation of the original and expanded runs: (1 - weight) · a + weight · b over
 * min-max normalised scores (an article missing from a run gets that run's 0).
 */
export function mixRuns(a: LegHit[], b: LegHit[], weight: number): LegHit[] {
  const mix = { method: "minmax" as const, k: 0, ftsWeight: 1 - weight, semanticWeight: weight };
  return fuseScored(a, b, mix).map((h) => ({ articleId: h.articleId, score: h.score }));
}
