import assert from "node:assert/strict";
import { createFtsLeg } from "./fts_leg.ts";
import { FtsThreads } from "./fts_threads.ts";
import { addArticle, addPublisher, tempStore, testService, TOPICS } from "./_test_utils.ts";

type Store = Awaited<ReturnType<typeof tempStore>>;

async function seed(store: Store): Promise<void> {
  await addPublisher(store, "p1");
  await addPublisher(store, "p2");
  for (const [topic, texts] of Object.entries(TOPICS)) {
    for (const [i, body] of texts.entries()) {
      await addArticle(store, i % 3 === 0 ? "p2" : "p1", `${topic}-${i}`, {
        title: `${topic} ${i}`,
        body,
      });
    }
  }
}

/** The document counts the serving thread would hand a search thread. */
function countsOf(store: Store, publisherId: string) {
  return createFtsLeg(store.db, { feedback: null }).counts(publisherId, Date.now());
}

const QUERIES = ["car driver fuel", "automobile motor", "wheels road", "nothing-matches-this"];

Deno.test("a search thread ranks exactly as the serving thread does", async () => {
  await using store = await tempStore();
  await seed(store);
  const options = { feedback: { docs: 2, terms: 5, weight: 0.3 } };
  const inline = createFtsLeg(store.db, options);
  const threads = new FtsThreads(`${store.dir}/folio.db`, options, 2);
  try {
    for (const publisher of ["p1", "p2"]) {
      for (const q of QUERIES) {
        const counts = await inline.counts(publisher, Date.now());
        const [here, there] = await Promise.all([
          inline.run(publisher, q, 10, counts),
          threads.run(publisher, q, 10, counts),
        ]);
        assert.deepEqual(there, here, `${publisher}: ${q}`);
      }
    }
    assert.ok(threads.started >= 1 && threads.started <= 2);
  } finally {
    threads.close();
  }
});

Deno.test("a search thread sees what the serving connection has just committed", async () => {
  await using store = await tempStore();
  await seed(store);
  const threads = new FtsThreads(`${store.dir}/folio.db`, { feedback: null }, 1);
  try {
    const ask = async () =>
      (await threads.run("p1", "harpsichord", 10, await countsOf(store, "p1"))).map((h) =>
        h.articleId
      );
    assert.deepEqual(await ask(), []);
    const id = await addArticle(store, "p1", "music", {
      title: "The harpsichord",
      body: "A harpsichord plucks its strings.",
    });
    assert.deepEqual(await ask(), [id]);
    await store.db.execute({
      sql: "UPDATE articles SET unpublished_at = 1 WHERE id = ?",
      args: [id],
    });
    assert.deepEqual(await ask(), []); // eligibility is read at the thread's next search
  } finally {
    threads.close();
  }
});

Deno.test("a search thread that cannot open the store: the service answers inline, says so once", async () => {
  await using store = await tempStore();
  await seed(store);
  const errors: string[] = [];
  const fixed = new Date("2026-11-15T12:00:00Z");
  const search = testService(store, {
    legs: "fts",
    now: () => fixed,
    onError: (message) => errors.push(message),
    threads: { storePath: `${store.dir}/missing/folio.db`, count: 1, minDocs: 0 },
  });
  const plain = testService(store, { legs: "fts", now: () => fixed });
  try {
    for (const q of QUERIES) {
      assert.deepEqual(
        await search.search("p1", q, { limit: 5 }),
        await plain.search("p1", q, { limit: 5 }),
      );
    }
    assert.equal(errors.length, 1);
    assert.match(errors[0], /search thread failed/);
  } finally {
    await search.close();
    await plain.close();
  }
});

Deno.test("the service uses its search thread from minDocs on, with the same answers", async () => {
  await using store = await tempStore();
  await seed(store);
  const used = testService(store, {
    legs: "fts",
    resultCache: false,
    threads: { storePath: `${store.dir}/folio.db`, count: 1, minDocs: 0 },
  });
  const errors: string[] = [];
  const unused = testService(store, {
    legs: "fts",
    resultCache: false,
    onError: (message) => errors.push(message),
    threads: { storePath: `${store.dir}/missing/folio.db`, count: 1, minDocs: 1_000_000 },
  });
  const plain = testService(store, { legs: "fts", resultCache: false });
  try {
    for (const q of QUERIES) {
      const expected = await plain.search("p1", q, { limit: 5 });
      assert.deepEqual(await used.search("p1", q, { limit: 5 }), expected);
      // Below minDocs the thread (here one that could not even open the store) is never asked.
      assert.deepEqual(await unused.search("p1", q, { limit: 5 }), expected);
    }
    assert.deepEqual(errors, []);
  } finally {
    await used.close();
    await unused.close();
    await plain.close();
  }
});

Deno.test("closing the threads rejects searches in flight and refuses new ones", async () => {
  await using store = await tempStore();
  await seed(store);
  const counts = await countsOf(store, "p1");
  const threads = new FtsThreads(`${store.dir}/folio.db`, { feedback: null }, 1);
  const inFlight = threads.run("p1", "car", 10, counts);
  threads.close();
  await assert.rejects(inFlight, /closed/);
  await assert.rejects(threads.run("p1", "car", 10, counts), /closed/);
});

Deno.test("a thread that answers with an error is replaced by a fresh one", async () => {
  await using store = await tempStore();
  await seed(store);
  const path = `${store.dir}/later/folio.db`;
  const counts = await countsOf(store, "p1");
  const threads = new FtsThreads(path, { feedback: null }, 1);
  try {
    await assert.rejects(threads.run("p1", "car", 10, counts), /search thread failed/);
    assert.equal(threads.started, 0);
    // The store appears where the thread looks: the next search starts a thread that opens it.
    await Deno.mkdir(`${store.dir}/later`);
    await store.db.execute({ sql: "VACUUM INTO ?", args: [path] });
    const hits = await threads.run("p1", "car driver", 10, counts);
    assert.ok(hits.length > 0);
    assert.equal(threads.started, 1);
  } finally {
    threads.close();
  }
});

Deno.test("a quiet search thread gives its page cache back and answers the same afterwards", async () => {
  await using store = await tempStore();
  await seed(store);
  const threads = new FtsThreads(`${store.dir}/folio.db`, { feedback: null }, 1, 50);
  try {
    const counts = await countsOf(store, "p1");
    const before = await threads.run("p1", "car driver fuel", 10, counts);
    assert.ok(before.length > 0);
    assert.equal(threads.shrinks, 0);
    const deadline = Date.now() + 30_000;
    while (threads.shrinks === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(threads.shrinks, 1, "the thread shrank once after its quiet spell");
    assert.deepEqual(await threads.run("p1", "car driver fuel", 10, counts), before);
  } finally {
    threads.close();
  }
});
