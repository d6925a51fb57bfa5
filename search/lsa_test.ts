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
