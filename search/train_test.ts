import assert from "node:assert/strict";
import { deserializeLsa, embedLsa, trainLsa } from "./lsa.ts";
import { IN_PLACE, trainSample } from "./train.ts";
import { runTrainer, TRAINER_ARG } from "./trainer.ts";

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

Deno.test("trainSample() trains a large sample in a trainer process and matches training in place", async () => {
  const texts = corpus(IN_PLACE.docs + 100);
  const options = { dims: 3, version: 7 };
  const [offThread, inPlace] = [
    (await trainSample(paged(texts, 64), options)).model,
    trainLsa(texts, options),
  ];
  assert.equal(offThread.version, 7);
  assert.deepEqual(offThread.vocab, inPlace.vocab);
  const a = embedLsa(offThread, "warm homes with radiators");
  const b = embedLsa(inPlace, "warm homes with radiators");
  assert.deepEqual([...a].map((x) => x.toFixed(4)), [...b].map((x) => x.toFixed(4)));
});

Deno.test("trainSample() gives the same model whatever the page size, in place or not", async () => {
  for (const n of [IN_PLACE.docs - 100, IN_PLACE.docs + 100]) {
    const texts = corpus(n);
    const whole = trainLsa(texts, { dims: 4 });
    for (const size of [1, 37, n]) {
      const { model } = await trainSample(paged(texts, size), { dims: 4 });
      assert.deepEqual(model.vocab, whole.vocab);
      assert.deepEqual(model.weight, whole.weight);
      assert.deepEqual(model.proj, whole.proj, `${n} texts in pages of ${size}`);
    }
  }
});

Deno.test("trainSample() answers the model's stored bytes, the corpus size it stands for in them", async () => {
  for (const n of [IN_PLACE.docs - 100, IN_PLACE.docs + 100]) {
    const { model, bytes } = await trainSample(paged(corpus(n), 50), { dims: 3, docs: 10 * n });
    assert.equal(model.docs, 10 * n, `${n} texts`);
    const stored = deserializeLsa(bytes);
    assert.equal(stored.docs, 10 * n);
    assert.deepEqual(stored.vocab, model.vocab);
    assert.deepEqual(stored.proj, model.proj);
  }
});

Deno.test("trainSample() stops the trainer when reading the sample fails", async () => {
  async function* pages() {
    yield corpus(IN_PLACE.docs); // enough to start the trainer
    yield corpus(10);
    throw new Error("the store went away");
  }
  await assert.rejects(
    () => trainSample({ pages: pages() }, { dims: 3 }),
    /the store went away/,
  );
});

Deno.test("trainSample() keeps the event loop free while it trains", async () => {
  const texts = corpus(3000);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    await trainSample(paged(texts, texts.length), { dims: 3 });
  } finally {
    clearInterval(timer);
  }
  // Training in place would run to completion without letting a single timer fire.
  assert.ok(ticks > 0);
});

Deno.test("trainSample() trains a few long documents apart too, keeping the loop free", async () => {
  // Fewer documents than IN_PLACE.docs, more text than IN_PLACE.chars: book chapters.
  const long = corpus(40).map((t) => t.repeat(Math.ceil(IN_PLACE.chars / 40 / t.length) + 1));
  assert.ok(long.length < IN_PLACE.docs);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let model;
  try {
    ({ model } = await trainSample(paged(long, 8), { dims: 3 }));
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks > 0);
  assert.deepEqual(model.vocab, trainLsa(long, { dims: 3 }).vocab);
});

Deno.test("trainSample() fails with the trainer's own reason when the trainer dies", async () => {
  const dies = {
    command: Deno.execPath(),
    args: ["eval", "console.error('out of memory'); Deno.exit(3)"],
  };
  await assert.rejects(
    () => trainSample(paged(corpus(IN_PLACE.docs + 10), 50), { dims: 3 }, dies),
    /LSA training failed: out of memory/,
  );
  // A trainer that exits cleanly without a model is a failure too.
  const silent = { command: Deno.execPath(), args: ["eval", "Deno.exit(0)"] };
  await assert.rejects(
    () => trainSample(paged(corpus(IN_PLACE.docs + 10), 50), { dims: 3 }, silent),
    /LSA training failed/,
  );
});

Deno.test("main.ts given --folio-trainer is the trainer, as the compiled binary runs itself", async () => {
  const texts = corpus(IN_PLACE.docs + 20);
  const main = new URL("../main.ts", import.meta.url).pathname;
  // The binary has its permissions built in; `deno run` needs them to load the server's modules.
  const binary = {
    command: Deno.execPath(),
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      main,
      TRAINER_ARG,
    ],
  };
  const { model } = await trainSample(paged(texts, 100), { dims: 3, version: 2 }, binary);
  const whole = trainLsa(texts, { dims: 3, version: 2 });
  assert.deepEqual(model.vocab, whole.vocab);
  assert.deepEqual(model.proj, whole.proj);
});

/** The trainer's stdin: `lines` as UTF-8, cut into pieces of `size` bytes (splitting characters). */
function input(lines: string[], size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(lines.join("\n"));
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += size));
    },
  });
}

/** A sink that keeps what the trainer writes. */
function output() {
  const chunks: Uint8Array[] = [];
  const stream = new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) });
  return { stream, bytes: () => new Uint8Array(chunks.flatMap((c) => [...c])) };
}

Deno.test("runTrainer() reads pages split anywhere, even inside a character, and writes the model", async () => {
  const texts = corpus(60).map((t, i) => `${t} caf\u00e9 \u201cquoted\u201d ${i}`);
  const lines = [
    JSON.stringify({ texts: texts.slice(0, 25) }),
    JSON.stringify({ texts: texts.slice(25) }),
    JSON.stringify({ train: { dims: 3, version: 4 } }),
  ];
  for (const size of [1, 7, 4096]) {
    const sink = output();
    assert.equal(await runTrainer(input(lines, size), sink.stream), 0);
    const model = deserializeLsa(sink.bytes());
    const whole = trainLsa(texts, { dims: 3, version: 4 });
    assert.equal(model.version, 4);
    assert.deepEqual(model.vocab, whole.vocab);
    assert.deepEqual(model.proj, whole.proj, `pieces of ${size} bytes`);
  }
});

Deno.test("runTrainer() exits 1 without a model when the sample ends early or is not JSON", async () => {
  for (const lines of [[JSON.stringify({ texts: corpus(10) })], ["{not json"]]) {
    const sink = output();
    assert.equal(await runTrainer(input(lines, 64), sink.stream), 1);
    assert.equal(sink.bytes().length, 0);
  }
});
