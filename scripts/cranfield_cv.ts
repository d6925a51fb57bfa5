/**
 * Metrics and k-fold selection for scripts/eval_cranfield.ts: nDCG@10 with Cranfield's backwards
 * grades, deterministic folds, and picking the configuration with the best mean on the other folds.
 */
import ttest from "@stdlib/stats-ttest";

/** Judgements of one query: document id to grade (1 best .. 4, -1 not relevant). */
export type Judged = Map<string, number>;

const gain = (g: number | undefined) => (g !== undefined && g >= 1 && g <= 4 ? 5 - g : 0);

/** nDCG@10 with gain 5 - grade for grades 1..4 (1 is the best answer), 0 otherwise. */
export function ndcg10(ranked: string[], judged: Judged): number {
  const dcg = ranked.slice(0, 10).reduce(
    (s, d, i) => s + gain(judged.get(d)) / Math.log2(i + 2),
    0,
  );
  const ideal = [...judged.values()].map(gain).sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Share of the relevant documents (grades 1..4) found in the first 100. */
export function recall100(ranked: string[], judged: Judged): number {
  const relevant = [...judged].filter(([, g]) => g >= 1 && g <= 4).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, 100));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / Math.max(1, xs.length);
}

/** Sample standard deviation (n - 1), 0 for fewer than two values. */
export function std(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Fold of each query: queries sorted by numeric id, dealt round-robin (no randomness). */
export function foldsOf(queryIds: string[], k: number): number[] {
  const order = queryIds.map((id, i) => ({ id: Number(id), i })).sort((a, b) => a.id - b.id);
  const fold = new Array<number>(queryIds.length);
  order.forEach((q, rank) => fold[q.i] = rank % k);
  return fold;
}

/** Mean of `perQuery` over the queries whose fold passes `take`. */
export function meanWhere(
  perQuery: ArrayLike<number>,
  fold: number[],
  take: (f: number) => boolean,
) {
  let s = 0, n = 0;
  for (let i = 0; i < fold.length; i++) {
    if (take(fold[i])) (s += perQuery[i], n++);
  }
  return n > 0 ? s / n : 0;
}

/**
 * Index of the candidate with the best mean over the queries `take` admits; ties go to the
 * earliest candidate, so list simpler configurations first.
 */
export function best(
  candidates: ArrayLike<number>[],
  fold: number[],
  take: (f: number) => boolean,
): number {
  let at = -1, top = -Infinity;
  candidates.forEach((c, i) => {
    const m = meanWhere(c, fold, take);
    if (m > top + 1e-12) [at, top] = [i, m];
  });
  return at;
}

/** The p-th percentile (0..100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

/**
 * Parsimony (issue 30): the candidate with the fewest free parameters (`cost`) whose mean on the
 * queries `take` admits is not significantly below the best one's (paired t-test, two-sided
 * p >= `alpha`); ties in cost go to the higher mean. The best by mean is always eligible.
 */
export function simplest(
  candidates: ArrayLike<number>[],
  cost: number[],
  fold: number[],
  take: (f: number) => boolean,
  alpha = 0.05,
): number {
  const top = best(candidates, fold, take);
  let at = top;
  candidates.forEach((c, i) => {
    if (c.length === 0 || i === top) return;
    if (cost[i] > cost[at] || (cost[i] === cost[at] && mean2(c) <= mean2(candidates[at]))) return;
    const d: number[] = [];
    for (let q = 0; q < fold.length; q++) if (take(fold[q])) d.push(candidates[top][q] - c[q]);
    if (d.every((x) => Math.abs(x - d[0]) < 1e-15) && Math.abs(d[0] ?? 0) > 1e-12) return;
    const p = d.every((x) => Math.abs(x) < 1e-15) ? 1 : ttest(d).pValue;
    if (p >= alpha) at = i;
  });
  function mean2(xs: ArrayLike<number>) {
    return meanWhere(xs, fold, take);
  }
  return at;
}
