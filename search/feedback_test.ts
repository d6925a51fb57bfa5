import assert from "node:assert/strict";
import { expansionTerms, mixRuns, rocchio } from "./feedback.ts";
import { VectorIndex } from "./vector_index.ts";

Deno.test("expansionTerms() picks the feedback documents' words, weighted by score", () => {
  const docs = [
    { text: "Boundary layer transition on swept wings; transition at high Mach.", score: 9 },
    { text: "Wings and transition: wind tunnel data for transition.", score: 8 },
    { text: "Heat transfer in hypersonic flow.", score: 1 },
  ];
  const terms = expansionTerms("boundary layer", docs, 3);
  // "transition" is in both top documents; query words (and their stems) never come back.
  assert.equal(terms[0], "transition");
  assert.ok(terms.includes("wings"));
  assert.ok(!terms.includes("boundary") && !terms.includes("layer"));
  assert.equal(terms.length, 3);
});

Deno.test("expansionTerms() skips stop words, short words and numbers; n bounds the list", () => {
  const docs = [{ text: "the of at 1958 12 ab wing wing wing", score: 1 }];
  assert.deepEqual(expansionTerms("lift", docs, 5), ["wing"]);
  assert.deepEqual(expansionTerms("lift", docs, 0), []);
  assert.deepEqual(expansionTerms("lift", [], 5), []);
  // Same stem, different forms: one entry, in the form seen most often.
  const forms = [{ text: "nozzles nozzle nozzles", score: 1 }];
  assert.deepEqual(expansionTerms("flow", forms, 5), ["nozzles"]);
  assert.deepEqual(expansionTerms("nozzle", forms, 5), []);
});

Deno.test("rocchio() moves the query towards the feedback vectors and renormalises", () => {
  const q = Float32Array.from([1, 0]);
  const moved = rocchio(q, [Float32Array.from([0, 1]), Float32Array.from([0, 1])], 1);
  assert.ok(Math.abs(moved[0] - Math.SQRT1_2) < 1e-6 && Math.abs(moved[1] - Math.SQRT1_2) < 1e-6);
  const far = rocchio(q, [Float32Array.from([0, 1])], 3);
  assert.ok(far[1] > far[0]);
  assert.equal(rocchio(q, [], 2), q);
  assert.equal(rocchio(q, [Float32Array.from([1, 0, 0])], 2), q); // other dimensions are ignored
});

Deno.test("mixRuns() interpolates min-max scores of the original and expanded runs", () => {
  const a = [{ articleId: "x", score: 5 }, { articleId: "y", score: 1 }];
  const b = [{ articleId: "z", score: 3 }, { articleId: "y", score: 2 }, {
    articleId: "w",
    score: 1,
  }];
  const out = mixRuns(a, b, 0.7);
  assert.deepEqual(out.map((h) => h.articleId), ["z", "y", "x", "w"]);
  assert.ok(Math.abs(out[0].score - 0.7) < 1e-12);
  assert.ok(Math.abs(out[1].score - 0.35) < 1e-12);
  assert.ok(Math.abs(out[2].score - 0.3) < 1e-12);
});

Deno.test("VectorIndex.articleVector() is the normalised mean of the article's chunks", () => {
  const index = new VectorIndex("t", 2);
  index.set("a", [{ n: 0, vector: Float32Array.from([1, 0]) }, {
    n: 1,
    vector: Float32Array.from([0, 1]),
  }]);
  const v = index.articleVector("a")!;
  assert.ok(Math.abs(v[0] - Math.SQRT1_2) < 0.01 && Math.abs(v[1] - Math.SQRT1_2) < 0.01);
  assert.equal(index.articleVector("missing"), null);
  index.remove("a");
  assert.equal(index.articleVector("a"), null);
});

Deno.test("VectorIndex.searchPooled() keeps the nearest ids by article vector, and re-ranks only them", () => {
  const index = new VectorIndex("t", 2);
  const angle = (deg: number) =>
    Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
  for (const deg of [0, 10, 20, 30, 80, 90]) index.set(`a${deg}`, [{ n: 0, vector: angle(deg) }]);
  const first = index.searchPooled(angle(0), { candidates: 2, minScore: -1, pool: 4 });
  assert.deepEqual(first.hits.map((h) => h.articleId), ["a0", "a10"]);
  assert.deepEqual(index.poolIds(first.pool), ["a0", "a10", "a20", "a30"]);
  // Near 90°, a full scan would find a90 and a80; among the pool only a30 and a20 remain.
  const second = index.searchPooled(angle(90), {
    candidates: 2,
    minScore: -1,
    pool: 0,
    among: first.pool,
  });
  assert.deepEqual(second.hits.map((h) => h.articleId), ["a30", "a20"]);
  assert.deepEqual(
    index.search(angle(90), { candidates: 2, minScore: -1 }).map((h) => h.articleId),
    [
      "a90",
      "a80",
    ],
  );
});
