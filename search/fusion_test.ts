import assert from "node:assert/strict";
import { fuse, modeOf } from "./fusion.ts";

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
