/** The search service's upkeep (search/upkeep.ts): rebuilds, the background loop, training, memory. */
import assert from "node:assert/strict";
import { manualTimer } from "../server/platform/clock.ts";
import { LOOP_IDLE_MS } from "./upkeep.ts";
import { IN_PLACE } from "./train.ts";
import {
  addArticle,
  addPublisher,
  seedTopics,
  tempStore,
  testService,
  TOPICS,
} from "./_test_utils.ts";

Deno.test("rebuild() recreates chunks, model and vectors from the articles", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const ids = await seedTopics(store, "p1");
  const search = testService(store);
  await search.embedPending({ publisherId: "p1", max: 10_000 });
  await store.db.execute("DELETE FROM chunks");
  await search.rebuild("p1");
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  const result = await search.search("p1", "car driver", { limit: 10 });
  assert.ok(result.hits.some((h) => h.articleId === ids.paraphrase && h.match));
  await search.close();
});

Deno.test("start() embeds in the background and close() waits for it", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await seedTopics(store, "p1");
  const timer = manualTimer();
  const search = testService(store, { timer });
  search.start();
  search.start();
  await timer.sleeping(1); // the loop has nothing left to embed and pauses
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  await search.close();
  assert.deepEqual(timer.pending(), [], "close() ended the pause");
});

Deno.test("the background loop trains no model while holdTraining() says so, then trains once", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await seedTopics(store, "p1");
  let importing = true;
  const timer = manualTimer();
  const search = testService(store, { holdTraining: () => importing, timer });
  const models = async () =>
    Number((await store.db.execute("SELECT COUNT(*) AS n FROM search_models")).rows[0].n);
  search.start();
  for (let round = 1; round <= 2; round++) {
    await timer.sleeping(1);
    assert.equal(await models(), 0, `round ${round}`);
    assert.deepEqual(await search.coverage("p1"), { embedded: 0, total: 25 });
    timer.advance(LOOP_IDLE_MS);
  }
  importing = false;
  await timer.sleeping(1);
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  assert.equal(await models(), 1);
  await search.close();
});

Deno.test("an explicit embedPending() trains even while the background loop holds training", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await seedTopics(store, "p1");
  const search = testService(store, { holdTraining: () => true });
  await search.embedPending({ publisherId: "p1" });
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  await search.close();
});

Deno.test("a trainer that fails is reported, then left alone by the background loop for a minute", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  // More text than IN_PLACE.chars, so the sample goes to the trainer process.
  const long = TOPICS.vehicles.join(" ").repeat(Math.ceil(IN_PLACE.chars / 4 / 500));
  for (let i = 0; i < 5; i++) {
    await addArticle(store, "p1", `l${i}`, { title: `l${i}`, body: long });
  }
  let clock = Date.parse("2026-11-26T12:00:00Z");
  let starts = 0;
  // Fails the way a trainer without memory would: a reason on stderr and a non-zero exit.
  const args = ["eval", "console.error('trainer: out of memory'); Deno.exit(1)"];
  const errors: string[] = [];
  const timer = manualTimer();
  const round = () => (timer.advance(LOOP_IDLE_MS), timer.sleeping(1));
  const search = testService(store, {
    now: () => new Date(clock),
    timer,
    onError: (message, err) => errors.push(`${message}: ${err}`),
    trainer: {
      command: Deno.execPath(),
      get args() {
        starts++;
        return args;
      },
    },
  });
  search.start();
  await timer.sleeping(1); // the loop's first round failed and it pauses
  assert.match(errors[0], /Search indexing failed: .*LSA training failed: trainer: out of memory/);
  // Two more rounds, the second 59 s after the failure: neither starts the trainer.
  await round();
  clock += 59_000;
  await round();
  assert.equal(starts, 1);
  assert.equal(errors.length, 1);
  // An explicit call is answered with the failure at once.
  await assert.rejects(() => search.embedPending({ publisherId: "p1" }), /LSA training failed/);
  assert.equal(starts, 2);
  clock += 61_000; // a minute after the loop's failure: it tries again
  await round();
  assert.equal(errors.length, 2);
  assert.equal(starts, 3);
  // Full text answers meanwhile.
  assert.ok((await search.search("p1", "automobile", { limit: 3 })).hits.length > 0);
  await search.close();
});

Deno.test("afterBurst() follows a burst of 512 chunks once the loop is idle, at most every 30 s", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  // 64 chunks an article (the most it keeps): nine articles are a burst, one is not.
  const long = (topic: string[]) => Array.from({ length: 70 }, () => topic.join(" ")).join("\n\n");
  let clock = Date.parse("2026-11-26T12:00:00Z");
  const releases: string[] = [];
  const timer = manualTimer();
  const models = async () =>
    Number((await store.db.execute("SELECT COUNT(*) AS n FROM search_models")).rows[0].n);
  const search = testService(store, {
    now: () => new Date(clock),
    afterBurst: () => releases.push(`release ${clock}`),
    timer,
  });
  const add = async (prefix: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const body = long(i % 2 ? TOPICS.vehicles : TOPICS.astronomy);
      const id = await addArticle(store, "p1", `${prefix}${i}`, { title: `${prefix}${i}`, body });
      await search.articleChanged("p1", id);
    }
  };
  // Adding an article wakes the loop; it pauses again once everything is embedded.
  const settled = () => timer.sleeping(1);
  await add("a", 9);
  search.start();
  await settled();
  assert.deepEqual(timer.pending(), [LOOP_IDLE_MS]);
  assert.equal(await models(), 1);
  assert.equal(releases.length, 1);
  await add("b", 1); // a small burst: nothing to give back
  await settled();
  assert.equal(releases.length, 1);
  await add("c", 9); // a burst 30 s have not passed since the last release: it waits
  await settled();
  assert.equal(releases.length, 1);
  clock += 31_000;
  timer.advance(LOOP_IDLE_MS); // the loop's next idle round
  await settled();
  assert.equal(releases.length, 2);
  await search.close();
});

Deno.test("memory is given back before the background loop trains a model an import held, once", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addPublisher(store, "p2");
  await seedTopics(store, "p1");
  await seedTopics(store, "p2");
  let importing = true;
  let released = 0;
  const timer = manualTimer();
  const search = testService(store, {
    holdTraining: () => importing,
    afterBurst: () => released++,
    timer,
  });
  await search.embedPending({ publisherId: "p1" }); // trains p1's model in the caller's hands
  assert.equal(released, 0);
  search.start();
  await timer.sleeping(1);
  assert.equal(released, 0, "no training while an import holds it");
  importing = false;
  timer.advance(LOOP_IDLE_MS);
  await timer.sleeping(1);
  assert.deepEqual(await search.coverage("p2"), { embedded: 25, total: 25 });
  assert.equal(released, 1, "p2's import left garbage: given back before its model is trained");
  const late = await addArticle(store, "p2", "late", { title: "late", body: TOPICS.vehicles[0] });
  await search.articleChanged("p2", late);
  await timer.sleeping(1);
  assert.equal(released, 1, "no import held anything since");
  await search.close();
});

Deno.test("the LSA model is retrained when the corpus doubles and old vectors are redone", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  for (const [i, body] of TOPICS.vehicles.entries()) {
    await addArticle(store, "p1", `v${i}`, { title: `v${i}`, body });
  }
  const search = testService(store);
  await search.embedPending({ publisherId: "p1" });
  const embedders = async () =>
    (await store.db.execute("SELECT DISTINCT embedder FROM chunks")).rows.map((r) =>
      String(r.embedder)
    );
  const [v1] = await embedders();
  assert.match(v1, /^lsa:1:/);
  for (const [i, body] of TOPICS.cooking.entries()) {
    await addArticle(store, "p1", `c${i}`, { title: `c${i}`, body });
  }
  await search.embedPending({ publisherId: "p1" });
  const after = await embedders();
  assert.equal(after.length, 1);
  assert.match(after[0], /^lsa:2:/);
  assert.deepEqual(await search.coverage("p1"), { embedded: 16, total: 16 });
  await search.close();
});
