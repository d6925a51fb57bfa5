import assert from "node:assert/strict";
import { deserializeLsa, embedLsa, serializeLsa, trainLsa } from "./lsa.ts";
import { terms } from "./text.ts";
import { PARAPHRASE, TOPICS } from "./_test_utils.ts";

Deno.test("trainLsa() finds a paraphrase that shares no words with the query", () => {
  const corpus = [...TOPICS.vehicles, ...TOPICS.cooking, ...TOPICS.astronomy, PARAPHRASE];
  const model = trainLsa(corpus, { dims: 3 });
  const query = "car driver";
  const shared = terms(query).filter((t) => terms(PARAPHRASE).includes(t));
  assert.deepEqual(shared, []);
  const q = embedLsa(model, query);
  const cos = (text: string) => embedLsa(model, text).reduce((s, x, i) => s + x * q[i], 0);
  const target = cos(PARAPHRASE);
  assert.ok(target > 0.5, `paraphrase similarity ${target}`);
  for (const other of [...TOPICS.cooking, ...TOPICS.astronomy]) {
    assert.ok(cos(other) < target, `"${other}" outranks the paraphrase`);
  }
});

Deno.test("embedLsa() returns a unit vector, or zeros for unknown words", () => {
  const model = trainLsa([...TOPICS.vehicles, ...TOPICS.cooking], { dims: 4 });
  const v = embedLsa(model, "bread oven");
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  assert.ok(embedLsa(model, "xylophone quasar").every((x) => x === 0));
});

Deno.test("serializeLsa() round-trips a model", () => {
  const model = trainLsa(TOPICS.astronomy, { dims: 2, version: 7 });
  const back = deserializeLsa(serializeLsa(model));
  assert.equal(back.version, 7);
  assert.equal(back.dims, model.dims);
  assert.deepEqual(back.vocab, model.vocab);
  assert.deepEqual(embedLsa(back, "telescope star"), embedLsa(model, "telescope star"));
});

/** A version-1 blob (float32 projection), as models trained before int8 were stored. */
function floatBlob(vocab: string[], dims: number, weight: Float32Array, proj: Float32Array) {
  const header = new TextEncoder().encode(
    JSON.stringify({ format: "folio-lsa/1", version: 3, dims, docs: 50, vocab }),
  );
  const headerLen = Math.ceil((4 + header.length) / 4) * 4;
  const out = new Uint8Array(headerLen + 4 * (weight.length + proj.length));
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(new Uint8Array(weight.buffer), headerLen);
  out.set(new Uint8Array(proj.buffer), headerLen + weight.byteLength);
  return out;
}

Deno.test("a float32 (version 1) model loads as int16 and folds in as float does", () => {
  const vocab = Array.from({ length: 400 }, (_, i) => `term${i}`);
  const dims = 64;
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const weight = Float32Array.from(vocab, () => 1 + 3 * random());
  const proj = Float32Array.from({ length: vocab.length * dims }, () => random() * 2 - 1);
  const model = deserializeLsa(floatBlob(vocab, dims, weight, proj));
  assert.equal(model.version, 3);
  assert.ok(model.proj instanceof Int16Array);
  for (let q = 0; q < 20; q++) {
    const words = Array.from({ length: 1 + q % 6 }, () => vocab[Math.floor(random() * 400)]);
    // The float fold-in, by hand: sublinear tf-weight weights times float rows, normalised.
    const exact = new Float64Array(dims);
    const tf = new Map<number, number>();
    for (const w of words) tf.set(vocab.indexOf(w), (tf.get(vocab.indexOf(w)) ?? 0) + 1);
    for (const [i, n] of tf) {
      for (let j = 0; j < dims; j++) exact[j] += (1 + Math.log(n)) * weight[i] * proj[i * dims + j];
    }
    const norm = Math.hypot(...exact);
    const got = embedLsa(model, words.join(" "));
    const cos = got.reduce((s, x, j) => s + x * exact[j] / norm, 0);
    assert.ok(cos > 0.999999, `cosine to the float fold-in ${cos} for "${words.join(" ")}"`);
  }
  // Int16 bytes, not float32: a 400 × 64 model is about half its float size.
  assert.ok(serializeLsa(model).byteLength < 0.6 * (4 * 400 * 65));
});

Deno.test("deserializeLsa() refuses a truncated or foreign blob", () => {
  const bytes = serializeLsa(trainLsa(TOPICS.astronomy, { dims: 2 }));
  assert.throws(() => deserializeLsa(bytes.subarray(0, bytes.length - 1)), /truncated/);
  const foreign = new TextEncoder().encode(JSON.stringify({ format: "other", vocab: [] }));
  const blob = new Uint8Array(4 + foreign.length);
  new DataView(blob.buffer).setUint32(0, foreign.length, true);
  blob.set(foreign, 4);
  assert.throws(() => deserializeLsa(blob), /format other/);
});
