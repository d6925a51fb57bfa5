/**
 * Paired statistics for scripts/eval_cranfield.ts (issue 30): two configurations scored on the same
 * queries are compared query by query. The mean difference comes with a paired t-test
 * (@stdlib/stats-ttest, its 95% confidence interval) and a paired randomisation test (each
 * query's difference flips sign at random; Smucker, Allan and Carterette 2007 recommend it for IR),
 * run with a fixed seed so a run repeats itself. A fold holds about 23 queries, so a fold's p-value
 * is weak evidence alone; the pooled line (every query scored by the fold that held it out) is the
 * one to read.
 */
import ttest from "@stdlib/stats-ttest";

/** Sign flips drawn by the randomisation test. */
export const FLIPS = 100_000;

/** What a paired comparison of per-query scores found. */
export interface Paired {
  n: number;
  meanDiff: number;
  wins: number;
  losses: number;
  /** Two-sided paired t-test p-value and the 95% interval of the mean difference. */
  tP: number;
  ci: [number, number];
  /** Two-sided randomisation test p-value (FLIPS sign flips, seeded). */
  permP: number;
}

/**
 * Compares `a` with `b` (same queries, same order) on the positions `take` admits; `flips: false`
 * skips the randomisation test (permP 1) where only the t-test is read.
 */
export function paired(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  take: (i: number) => boolean,
  options: { flips?: boolean } = {},
) {
  const d: number[] = [];
  for (let i = 0; i < a.length; i++) if (take(i)) d.push(a[i] - b[i]);
  const n = d.length;
  const meanDiff = d.reduce((s, x) => s + x, 0) / Math.max(1, n);
  const wins = d.filter((x) => x > 1e-12).length;
  const losses = d.filter((x) => x < -1e-12).length;
  let tP = 1;
  let ci: [number, number] = [0, 0];
  if (n > 1 && d.some((x) => Math.abs(x - meanDiff) > 1e-15)) {
    const t = ttest(d);
    tP = t.pValue;
    ci = [t.ci[0], t.ci[1]];
  }
  const permP = options.flips === false ? 1 : randomisation(d);
  return { n, meanDiff, wins, losses, tP, ci, permP } satisfies Paired;
}

/** Two-sided p of the mean difference under random sign flips (+1 smoothing, never 0). */
function randomisation(d: number[]): number {
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  if (observed < 1e-12) return 1;
  const next = mulberry32(1);
  let extreme = 0;
  for (let k = 0; k < FLIPS; k++) {
    let s = 0;
    for (const x of d) s += next() < 0.5 ? x : -x;
    if (Math.abs(s) >= observed - 1e-12) extreme++;
  }
  return (extreme + 1) / (FLIPS + 1);
}

/** A small seeded PRNG (mulberry32), so the test's p-value is the same run after run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Prints the comparisons per fold and pooled. `runs` are per-query scores over all queries, each
 * query scored as in its held-out fold; `fold[i]` is query i's fold.
 */
export function printPaired(
  comparisons: { name: string; a: ArrayLike<number>; b: ArrayLike<number> }[],
  fold: number[],
  folds: number,
): void {
  const sign = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(4)}`;
  const p = (x: number) => x < 0.0001 ? "<0.0001" : x.toFixed(4);
  console.log(
    `\nPaired per-query nDCG@10 differences (a - b) on held-out queries: paired t-test, and a ` +
      `randomisation test of ${FLIPS.toLocaleString("en")} sign flips (seed 1)`,
  );
  console.log(
    "comparison                               fold   n  mean diff  wins/losses  t p     perm p",
  );
  for (const c of comparisons) {
    for (let f = 0; f <= folds; f++) {
      const all = f === folds;
      const r = paired(c.a, c.b, all ? () => true : (i) => fold[i] === f);
      const ci = all ? `  95% CI [${sign(r.ci[0])}, ${sign(r.ci[1])}]` : "";
      console.log(
        [
          c.name.padEnd(39),
          (all ? "all" : String(f + 1)).padStart(4),
          String(r.n).padStart(4),
          sign(r.meanDiff).padStart(10),
          `${r.wins}/${r.losses}`.padStart(11),
          p(r.tP).padStart(8),
          p(r.permP).padStart(8),
        ].join(" ") + ci,
      );
    }
  }
}
