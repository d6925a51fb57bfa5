import assert from "node:assert/strict";
import { topBucket } from "./vector_index.ts";

Deno.test("topBucket() keeps every score that can be among the k largest, and few others", () => {
  let seed = 11;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (const [n, k] of [[100_000, 2000], [5000, 50], [300, 299], [10, 50], [4096, 1]]) {
    // Cosines with ties, a long flat tail and a few outliers, as a scan returns.
    const scores = Float32Array.from(
      { length: n },
      (_, i) => i % 97 === 0 ? 0.25 : i % 13 === 0 ? 0.9 * random() : 0.4 * random() - 0.2,
    );
    const { lo, scale, bucket } = topBucket(scores, k);
    const kept = scores.filter((x) => ((x - lo) * scale | 0) >= bucket);
    const kth = scores.toSorted((a, b) => b - a)[Math.min(k, n) - 1];
    assert.ok(kept.length >= Math.min(k, n), `${n}/${k}: kept ${kept.length}`);
    for (const x of scores) {
      if (x >= kth) assert.ok(((x - lo) * scale | 0) >= bucket, `${n}/${k}: ${x} dropped`);
    }
    if (n >= 5000) assert.ok(kept.length < 1.2 * k + 200, `${n}/${k}: kept ${kept.length}`);
  }
  // All equal: everything is kept.
  assert.equal(topBucket(new Float32Array(100).fill(0.5), 10).scale, 0);
});
