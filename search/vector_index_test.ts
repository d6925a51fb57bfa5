import assert from "node:assert/strict";
import { VectorIndex } from "./vector_index.ts";

Deno.test("a snapshot loads to the same index, and the loaded index takes changes like any other", () => {
  let seed = 5;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const unit = (d: number) => {
    const v = Float32Array.from({ length: d }, () => random() * 2 - 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const d = 16;
  const chunks = (k: number) => Array.from({ length: k }, (_, n) => ({ n, vector: unit(d) }));
  const index = new VectorIndex("lsa:test", d);
  for (let a = 0; a < 60; a++) index.set(`a${a}`, chunks(1 + (a % 4)));
  index.set("a3", chunks(5)); // replaced
  index.remove("a7");
  index.vseq = 42;
  const queries = Array.from({ length: 8 }, () => unit(d));
  const answers = (ix: VectorIndex) =>
    queries.map((q) => ({
      hits: ix.search(q, { candidates: 20, minScore: -1 }),
      chunks: ix.chunkScores("a3", q),
      vector: ix.articleVector("a10"),
    }));

  const loaded = VectorIndex.deserialize(index.serialize());
  assert.equal(loaded.vseq, 42);
  assert.equal(loaded.size, 59);
  assert.ok(!loaded.has("a7"));
  assert.deepEqual(answers(loaded), answers(index));

  // Changes after loading: a replaced article, a removed one, a new one; then a second round trip.
  for (const ix of [index, loaded]) {
    seed = 99;
    ix.set("a10", chunks(2));
    ix.remove("a11");
    ix.set("b1", chunks(3));
  }
  assert.deepEqual(answers(loaded), answers(index));
  assert.deepEqual(answers(VectorIndex.deserialize(loaded.serialize())), answers(index));
  const bytes = index.serialize();
  assert.throws(() => VectorIndex.deserialize(bytes.subarray(0, bytes.length - 1)), /truncated/);
});
