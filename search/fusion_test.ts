import assert from "node:assert/strict";
import { confidence, DEFAULT_FUSION, fuse, fuseScored, modeOf, normalize } from "./fusion.ts";

Deno.test("fuse() ranks an article found by both legs above single-leg hits", () => {
  const out = fuse(["a", "b", "c"], ["d", "b", "e"], { k: 60, ftsWeight: 1, semanticWeight: 1 });
  assert.equal(out[0].articleId, "b");
  assert.equal(out[0].score, 1 / 62 + 1 / 62);
  assert.deepEqual(out.map((h) => h.articleId), ["b", "a", "d", "c", "e"]);
  assert.deepEqual(out.map((h) => h.semantic), [true, false, true, false, true]);
});

Deno.test("fuse() applies leg weights", () => {
  const out = fuse(["a"], ["b"], { k: 10, ftsWeight: 1, semanticWeight: 2 });
  assert.deepEqual(out.map((h) => h.articleId), ["b", "a"]);
});

Deno.test("modeOf() says which legs contributed", () => {
  assert.equal(modeOf(3, 2), "hybrid");
  assert.equal(modeOf(3, 0), "fts");
  assert.equal(modeOf(0, 1), "semantic");
  assert.equal(modeOf(0, 0), "none");
});

Deno.test("normalize() maps scores by rank, min-max or z-score", () => {
  assert.deepEqual(normalize([9, 5, 1], "rrf", 10), [1 / 11, 1 / 12, 1 / 13]);
  assert.deepEqual(normalize([9, 5, 1], "minmax"), [1, 0.5, 0]);
  assert.deepEqual(normalize([4, 4], "minmax"), [1, 1]);
  const z = normalize([3, 2, 1], "zscore");
  assert.ok(Math.abs(z[0] - Math.sqrt(1.5)) < 1e-12 && z[1] === 0);
  assert.deepEqual(normalize([7, 7], "zscore"), [0, 0]);
  assert.deepEqual(normalize([], "minmax"), []);
});

Deno.test("fuseScored() with min-max uses the scores, not just the ranks", () => {
  // By rank a and x tie; by score a is far ahead of its leg, x barely ahead of its own.
  const fts = [{ articleId: "a", score: 10 }, { articleId: "b", score: 1 }];
  const sem = [{ articleId: "x", score: 0.51 }, { articleId: "y", score: 0.5 }];
  const out = fuseScored(fts, sem, { method: "minmax", k: 0, ftsWeight: 1, semanticWeight: 1 });
  assert.deepEqual(out.map((h) => [h.articleId, h.score]), [["a", 1], ["x", 1], ["b", 0], [
    "y",
    0,
  ]]);
  const rrf = fuseScored(fts, sem, { k: 60, ftsWeight: 1, semanticWeight: 2 });
  assert.deepEqual(rrf.map((h) => h.articleId), ["x", "y", "a", "b"]);
});

Deno.test("fuseScored() with z-scores gives an absent article its leg's lowest value", () => {
  const fts = [{ articleId: "a", score: 3 }, { articleId: "b", score: 2 }, {
    articleId: "c",
    score: 1,
  }];
  const sem = [{ articleId: "c", score: 0.9 }, { articleId: "d", score: 0.1 }];
  const out = fuseScored(fts, sem, { method: "zscore", k: 0, ftsWeight: 1, semanticWeight: 1 });
  const score = Object.fromEntries(out.map((h) => [h.articleId, h.score]));
  // c: lowest in FTS (0 after the floor) plus the semantic top (2 sd above d); d gets 0 + 0.
  assert.ok(Math.abs(score.c - 2) < 1e-12);
  assert.equal(score.d, 0);
  assert.ok(Math.abs(score.a - 2 * Math.sqrt(1.5)) < 1e-12);
  assert.deepEqual(out.map((h) => h.articleId), ["a", "c", "b", "d"]);
});

Deno.test("adaptive fusion follows the leg whose best candidate stands out in this query", () => {
  // A headline query: the full-text leg's top hit stands far above its list, the semantic leg's
  // list is flat. RRF at the semantic weight tuned on Cranfield (×4) put "s1" first.
  const fts = [
    { articleId: "known", score: 40 },
    ...[1, 2, 3, 4, 5].map((i) => ({
      articleId: `f${i}`,
      score: 8 - i * 0.1,
    })),
  ];
  const sem = [1, 2, 3, 4, 5, 6].map((i) => ({ articleId: `s${i}`, score: 0.5 - i * 0.01 }));
  assert.equal(fuseScored(fts, sem, { k: 60, ftsWeight: 1, semanticWeight: 4 })[0].articleId, "s1");
  assert.equal(fuseScored(fts, sem)[0].articleId, "known", "the default is adaptive");
  // The other way round: a confident semantic leg beats a flat full-text list.
  const flat = [1, 2, 3, 4, 5, 6].map((i) => ({ articleId: `f${i}`, score: 5 - i * 0.01 }));
  const sharp = [
    { articleId: "near", score: 0.9 },
    ...[1, 2, 3, 4, 5].map((i) => ({
      articleId: `s${i}`,
      score: 0.3 - i * 0.01,
    })),
  ];
  assert.equal(fuseScored(flat, sharp)[0].articleId, "near");
  // An article both legs found ranks above what either found alone at the same standing.
  const both = fuseScored(
    [{ articleId: "a", score: 3 }, { articleId: "b", score: 2 }, { articleId: "c", score: 1 }],
    [{ articleId: "b", score: 0.6 }, { articleId: "d", score: 0.5 }, {
      articleId: "e",
      score: 0.4,
    }],
  );
  assert.equal(both[0].articleId, "b");
});

Deno.test("confidence(): the best candidate's z-score, with a floor for lists that say little", () => {
  assert.equal(confidence([]), 0.1);
  assert.equal(confidence([3]), 0.1);
  assert.equal(confidence([2, 2, 2]), 0.1);
  assert.ok(Math.abs(confidence([3, 1]) - 1) < 1e-12);
});

Deno.test("head-first fusion: each leg's top 20 rank above both legs' tails, scores still fall", () => {
  // The semantic leg's tail (ranks 21-40) scores high after z-scoring a list whose head is flat,
  // and one tail article ("t21") is also at the full-text leg's rank 30: over whole lists the two
  // weak votes lift it above the full-text leg's own head; head first they do not.
  const fts = Array.from({ length: 40 }, (_, i) => ({
    articleId: i === 29 ? "t21" : `f${i + 1}`,
    score: 40 - i,
  }));
  const sem = Array.from({ length: 40 }, (_, i) => ({
    articleId: i < 20 ? `s${i + 1}` : `t${i + 1}`,
    score: 0.9 - i * 0.001,
  }));
  const whole = fuseScored(fts, sem, { ...DEFAULT_FUSION, head: undefined });
  const first = fuseScored(fts, sem);
  assert.equal(DEFAULT_FUSION.head, 20);
  const headIds = new Set([...fts.slice(0, 20), ...sem.slice(0, 20)].map((h) => h.articleId));
  assert.deepEqual(new Set(first.slice(0, headIds.size).map((h) => h.articleId)), headIds);
  assert.ok(
    whole.findIndex((h) => h.articleId === "t21") < whole.findIndex((h) => h.articleId === "f20"),
    "over whole lists the doubly weak tail article passes the full-text leg's 20th",
  );
  assert.ok(first.findIndex((h) => h.articleId === "t21") >= headIds.size);
  assert.equal(first.length, new Set([...fts, ...sem].map((h) => h.articleId)).size);
  for (let i = 1; i < first.length; i++) assert.ok(first[i].score < first[i - 1].score + 1e-12);
  assert.equal(first.find((h) => h.articleId === "t21")!.semantic, true);
  assert.equal(first.find((h) => h.articleId === "f1")!.semantic, false);
});

Deno.test("head-first fusion of lists within the head is adaptive fusion of the whole lists", () => {
  const fts = [3, 2, 1].map((s, i) => ({ articleId: `a${i}`, score: s }));
  const sem = [0.7, 0.5].map((s, i) => ({ articleId: `a${i + 1}`, score: s }));
  assert.deepEqual(fuseScored(fts, sem), fuseScored(fts, sem, { ...DEFAULT_FUSION, head: 0 }));
  const semOnly = Array.from({ length: 25 }, (_, i) => ({ articleId: `s${i}`, score: 1 - i / 50 }));
  assert.deepEqual(
    fuseScored([], semOnly).map((h) => h.articleId),
    semOnly.map((h) => h.articleId),
  );
});
