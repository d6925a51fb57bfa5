/**
 * A mergeable latency sketch: log-spaced buckets whose bounds grow by γ = (1 + α) / (1 − α), so
 * the value reported for a bucket is within α = 1% of every latency in it (the DDSketch scheme).
 * Sketches merge by adding counts, so hourly rows add up to any window exactly, and a percentile
 * of merged hours is the percentile of the combined raw data to within 1%.
 */

/** Relative error of every percentile read from a sketch. */
export const RELATIVE_ERROR = 0.01;

const GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
/** Latencies below this (ms) share the lowest bucket; nothing we measure is that fast. */
const MIN_MS = 0.01;

/** The bucket a latency falls in. */
export function bucketOf(ms: number): number {
  return Math.ceil(Math.log(Math.max(ms, MIN_MS)) / LOG_GAMMA);
}

/** The value that represents bucket `b`: within 1% of every latency in it. */
export function bucketValue(b: number): number {
  return (2 * GAMMA ** b) / (GAMMA + 1);
}

/** Bucket → count. */
export type Sketch = Map<number, number>;

/** Adds `count` observations of bucket `b`. */
export function addToSketch(sketch: Sketch, b: number, count = 1): void {
  sketch.set(b, (sketch.get(b) ?? 0) + count);
}

/** Total observations in the sketch. */
export function sketchCount(sketch: Sketch): number {
  let n = 0;
  for (const c of sketch.values()) n += c;
  return n;
}

/**
 * Nearest-rank percentiles (docs/TEST-PLAN.md section 6): for each p in `ps` (0 < p ≤ 1), the value of
 * the observation at rank ⌈p·N⌉, rounded to 0.01 ms; null for an empty sketch.
 */
export function percentiles(sketch: Sketch, ps: number[]): (number | null)[] {
  const n = sketchCount(sketch);
  if (n === 0) return ps.map(() => null);
  const buckets = [...sketch.entries()].sort((a, b) => a[0] - b[0]);
  return ps.map((p) => {
    const rank = Math.max(1, Math.ceil(p * n));
    let seen = 0;
    for (const [b, c] of buckets) {
      seen += c;
      if (seen >= rank) return Math.round(bucketValue(b) * 100) / 100;
    }
    return Math.round(bucketValue(buckets.at(-1)![0]) * 100) / 100;
  });
}
