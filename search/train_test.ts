import assert from "node:assert/strict";
import { embedLsa, trainLsa } from "./lsa.ts";
import { IN_PLACE, trainOffThread } from "./train.ts";

function corpus(n: number): string[] {
  const topics = [
    "heat pump boiler radiator insulation warmth home energy",
    "coral reef ocean bleaching fish marine restoration",
    "bicycle lane cycling street traffic commute city",
    "sleep circadian rhythm melatonin night rest brain",
  ];
  return Array.from(
    { length: n },
    (_, i) => `${topics[i % 4]} doc${i % 50} ${topics[(i + 1) % 4].split(" ")[i % 7]}`,
  );
}

/** `texts` as a sample read `size` texts at a time. */
function paged(texts: string[], size: number) {
  async function* pages() {
    for (let i = 0; i < texts.length; i += size) yield texts.slice(i, i + size);
  }
  return { pages: pages() };
}

Deno.test("trainOffThread() trains a large sample in a Worker and matches training in place", async () => {
  const texts = corpus(IN_PLACE.docs + 100);
  const options = { dims: 3, version: 7 };
  const [offThread, inPlace] = [
    await trainOffThread(paged(texts, 64), options),
    trainLsa(texts, options),
  ];
  assert.equal(offThread.version, 7);
  assert.deepEqual(offThread.vocab, inPlace.vocab);
  const a = embedLsa(offThread, "warm homes with radiators");
  const b = embedLsa(inPlace, "warm homes with radiators");
  assert.deepEqual([...a].map((x) => x.toFixed(4)), [...b].map((x) => x.toFixed(4)));
});

Deno.test("trainOffThread() gives the same model whatever the page size, in place or not", async () => {
  for (const n of [IN_PLACE.docs - 100, IN_PLACE.docs + 100]) {
    const texts = corpus(n);
    const whole = trainLsa(texts, { dims: 4 });
    for (const size of [1, 37, n]) {
      const model = await trainOffThread(paged(texts, size), { dims: 4 });
      assert.deepEqual(model.vocab, whole.vocab);
      assert.deepEqual(model.idf, whole.idf);
      assert.deepEqual(model.proj, whole.proj, `${n} texts in pages of ${size}`);
    }
  }
});

Deno.test("trainOffThread() stops the Worker when reading the sample fails", async () => {
  async function* pages() {
    yield corpus(IN_PLACE.docs); // enough to start the Worker
    yield corpus(10);
    throw new Error("the store went away");
  }
  await assert.rejects(
    () => trainOffThread({ pages: pages() }, { dims: 3 }),
    /the store went away/,
  );
});

Deno.test("trainOffThread() keeps the event loop free while it trains", async () => {
  const texts = corpus(3000);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    await trainOffThread(paged(texts, texts.length), { dims: 3 });
  } finally {
    clearInterval(timer);
  }
  // Training in place would run to completion without letting a single timer fire.
  assert.ok(ticks > 0);
});

Deno.test("trainOffThread() trains a few long documents in a Worker too, keeping the loop free", async () => {
  // Fewer documents than IN_PLACE.docs, more text than IN_PLACE.chars: book chapters.
  const long = corpus(40).map((t) => t.repeat(Math.ceil(IN_PLACE.chars / 40 / t.length) + 1));
  assert.ok(long.length < IN_PLACE.docs);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let model;
  try {
    model = await trainOffThread(paged(long, 8), { dims: 3 });
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 0);
  assert.deepEqual(model.vocab, trainLsa(long, { dims: 3 }).vocab);
});
