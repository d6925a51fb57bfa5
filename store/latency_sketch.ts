/**
 * A mergeable latency sketch: log-spaced buckets whose bounds grow by γ = (1 + α) / (1 − α), so
 * the value reported for a bucket is within α = 1% of every latency in it (the DDSketch scheme).
 * Sketches merge by adding counts, so hourly rows add up to any window exactly, and a percentile
 * of merged hours is the percentile of the combined raw data to within 1% (store/status.ts reads
 * nearest-rank percentiles from merged buckets).
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
