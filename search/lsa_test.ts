import assert from "node:assert/strict";
import { deserializeLsa, embedLsa, serializeLsa, trainLsa } from "./lsa.ts";
import { terms } from "./text.ts";

/** Three topics; the vehicle docs tie "car" and "driver" to "automobile", "motor" and "fuel". */
export const TOPICS = {
  vehicles: [
    "The car driver checked the engine and the automobile fuel gauge before the road trip.",
    "A driver parks the car; the automobile motor cools while the wheels rest on the road.",
    "Car makers build automobile engines; every driver wants a motor that saves fuel.",
    "The driver steered the car along the road, the automobile wheels humming on asphalt.",
    "Fuel prices worry every car driver; an efficient automobile motor burns less fuel.",
    "The mechanic fixed the car engine, and the driver drove the automobile home by road.",
    "An automobile needs wheels, an engine and fuel; the car driver needs a licence.",
    "Electric car motors replace the automobile engine; the driver charges instead of buying fuel.",
  ],
  cooking: [
    "The baker mixed flour, sugar and butter, then put the bread in the hot oven.",
    "A kitchen recipe for bread: flour, water, yeast; bake it in the oven for an hour.",
    "Butter and sugar make the cake sweet; the recipe says bake at a moderate oven heat.",
    "The kitchen smelled of fresh bread as the baker took the loaf from the oven.",
    "Sift the flour, cream the butter and sugar, and follow the recipe in the kitchen.",
    "Bake cookies with flour, butter, sugar and chocolate; cool them outside the oven.",
    "The recipe book lists bread, cake and cookie recipes for a home kitchen oven.",
    "Knead the dough of flour and water, let it rise, then bake the bread in the oven.",
  ],
  astronomy: [
    "The astronomer pointed the telescope at a distant star and its orbiting planet.",
    "A comet crossed the planet's orbit; the telescope tracked it across the galaxy.",
    "Stars in our galaxy host planets; the astronomer measured each orbit with a telescope.",
    "The moon orbits the planet while the planet orbits the star at the galaxy's edge.",
    "A new telescope lets every astronomer see faint stars, comets and planets.",
    "The galaxy holds billions of stars; astronomers count them with a telescope.",
    "The planet's moon and a passing comet were seen by the astronomer's telescope.",
    "Orbit calculations tell the astronomer where the planet and star will appear.",
  ],
};

/** A passage about vehicles that shares no word with the query "car driver". */
export const PARAPHRASE = "An automobile motor burns fuel while its wheels grip the road.";

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
