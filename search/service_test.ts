/** The search service's queries (search/service.ts): legs, fusion, feedback, the result cache. */
import assert from "node:assert/strict";
import { upsertArticle } from "../store/articles.ts";
import type { Embedder } from "./embedder.ts";
import {
  addArticle,
  addBook,
  addPublisher,
  NOW,
  PARAPHRASE,
  seedTopics,
  tempStore,
  testService,
} from "./_test_utils.ts";

/** A fake embedder: "alpha"/"zeta" texts point one way, "beta" another, anything else nowhere. */
const fake: Embedder = {
  id: "fake:1",
  dims: 2,
  embed: (texts) =>
    Promise.resolve(texts.map((t) => {
      if (/alpha|zeta/i.test(t)) return Float32Array.of(1, 0);
      if (/beta/i.test(t)) return Float32Array.of(0, 1);
      return Float32Array.of(0, 0);
    })),
};

Deno.test("search() finds a paraphrase through the semantic leg and shows its passage", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const ids = await seedTopics(store, "p1");
  const search = testService(store);
  assert.ok(await search.embedPending({ publisherId: "p1" }) >= 25);
  const result = await search.search("p1", "car driver", { limit: 10 });
  assert.equal(result.mode, "hybrid");
  const hit = result.hits.find((h) => h.articleId === ids.paraphrase);
  assert.ok(hit, "the paraphrase is found");
  assert.deepEqual(hit.match, { chunkId: `${ids.paraphrase}#0`, section: "", snippet: PARAPHRASE });
  const cooking = result.hits.findIndex((h) => h.articleId.startsWith("cooking"));
  assert.equal(cooking, -1);
  const passages = await search.passages("p1", "car driver", { limit: 3 });
  assert.equal(passages.length, 3);
  assert.ok(passages.every((p) => p.chunkId.startsWith(p.articleId + "#") && p.text.length > 0));
  await search.close();
});

Deno.test("search() never returns BLOCKED articles or chapters whose book denies rag", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addBook(store, "p1", "open", true);
  await addBook(store, "p1", "closed", false);
  const body = "The telescope observed a comet near the planet orbit.";
  const ok = await addArticle(store, "p1", "ok", { title: "Comet report", body });
  await addArticle(store, "p1", "blocked", { title: "Comet blocked", body, policy: "BLOCKED" });
  const denied = await addArticle(store, "p1", "ch1", {
    title: "Comet chapter",
    body,
    kind: "chapter",
    bookId: "closed",
    chapterNo: 1,
  });
  const allowed = await addArticle(store, "p1", "ch2", {
    title: "Comet chapter",
    body,
    kind: "chapter",
    bookId: "open",
    chapterNo: 1,
  });
  const search = testService(store, { embedder: fake });
  await search.embedPending();
  const got = (await search.search("p1", "comet telescope", { limit: 10 })).hits.map((h) =>
    h.articleId
  );
  assert.deepEqual(got.toSorted(), [ok, allowed].toSorted());
  const passages = (await search.passages("p1", "comet", { limit: 10 })).map((p) => p.articleId);
  assert.deepEqual(passages.toSorted(), [ok, allowed].toSorted());
  assert.ok(!got.includes(denied));
  await search.close();
});

Deno.test("search() does not return another publisher's article", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addPublisher(store, "p10"); // a publisher id that extends the other one
  const body = "Supersonic alpha flutter of a swept wing.";
  const mine = await addArticle(store, "p1", "w", { title: "Wing flutter", body });
  const theirs = await addArticle(store, "p10", "w", { title: "Wing flutter", body });
  const search = testService(store, { embedder: fake });
  await search.embedPending();
  assert.deepEqual(
    (await search.search("p1", "wing flutter", { limit: 10 })).hits.map((h) => h.articleId),
    [mine],
  );
  assert.deepEqual(
    (await search.search("p10", "zeta", { limit: 10 })).hits.map((h) => h.articleId),
    [theirs],
  );
  await search.close();
});

Deno.test("full text stays within the publisher when it holds most of the index (unscoped FTS)", async () => {
  await using store = await tempStore();
  await addPublisher(store, "big");
  await addPublisher(store, "small");
  const body = (i: number) => `Harbour tides and mooring lines, note ${i}.`;
  const mine: string[] = [];
  for (let i = 0; i < 9; i++) {
    mine.push(await addArticle(store, "big", `b${i}`, { title: `Tides ${i}`, body: body(i) }));
  }
  // The small publisher's article matches better than any of the big one's.
  const theirs = await addArticle(store, "small", "s", {
    title: "Tides tides tides",
    body: "Tides, tides and more tides at the harbour.",
  });
  const search = testService(store, { legs: "fts" });
  const big = (await search.search("big", "tides", { limit: 20 })).hits.map((h) => h.articleId);
  assert.deepEqual(new Set(big), new Set(mine)); // 90% of the index: FTS is not scoped by token
  const small = (await search.search("small", "tides", { limit: 20 })).hits.map((h) => h.articleId);
  assert.deepEqual(small, [theirs]);
  await search.close();
});

Deno.test("search() mode says which legs contributed", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const a = await addArticle(store, "p1", "a", {
    title: "Alpha rays",
    body: "Alpha particles are helium nuclei.",
  });
  await addArticle(store, "p1", "g", { title: "Gamma rays", body: "Gamma rays are photons." });
  const search = testService(store, { embedder: fake });
  await search.embedPending();
  const hybrid = await search.search("p1", "alpha", { limit: 5 });
  assert.equal(hybrid.mode, "hybrid");
  assert.equal(hybrid.hits[0].articleId, a);
  assert.equal(hybrid.hits[0].match?.chunkId, `${a}#0`);
  const semantic = await search.search("p1", "zeta", { limit: 5 });
  assert.deepEqual([semantic.mode, semantic.hits.map((h) => h.articleId)], ["semantic", [a]]);
  const fts = await search.search("p1", "photons", { limit: 5 });
  assert.equal(fts.mode, "fts");
  assert.equal(fts.hits[0].match, undefined);
  assert.equal((await search.search("p1", "nothing matches this", { limit: 5 })).mode, "none");
  await search.close();
});

Deno.test("articleChanged() reflects an edited article and coverage() counts articles", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const ids = await seedTopics(store, "p1");
  const search = testService(store);
  assert.deepEqual(await search.coverage("p1"), { embedded: 0, total: 25 });
  await search.embedPending({ publisherId: "p1", max: 10_000 });
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  const id = ids.cooking0;
  const edited =
    "The astronomer aimed a telescope at the comet and the galaxy beyond the planet orbit.";
  await upsertArticle(store.db, "p1", {
    url: "https://example.test/cooking-0",
    title: "Night sky",
    body: edited,
  }, {
    now: NOW,
  });
  await search.articleChanged("p1", id);
  assert.deepEqual(await search.coverage("p1"), { embedded: 24, total: 25 });
  assert.equal(await search.embedPending({ publisherId: "p1" }), 1);
  assert.deepEqual(await search.coverage("p1"), { embedded: 25, total: 25 });
  const flour = await search.search("p1", "flour sugar butter", { limit: 25 });
  assert.ok(!flour.hits.some((h) => h.articleId === id && h.match?.snippet.includes("flour")));
  const sky = await search.search("p1", "telescope galaxy comet", { limit: 3 });
  const hit = sky.hits.find((h) => h.articleId === id);
  assert.equal(hit?.match?.snippet, edited);
  await store.db.execute({ sql: "DELETE FROM articles WHERE id = ?", args: [id] });
  await search.articleChanged("p1", id);
  assert.deepEqual(await search.coverage("p1"), { embedded: 24, total: 24 });
  assert.ok(
    !(await search.search("p1", "telescope galaxy comet", { limit: 25 })).hits.some((h) =>
      h.articleId === id
    ),
  );
  await search.close();
});

Deno.test("the vector snapshot is rebuilt when missing and refreshed when stale", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const dataDir = `${store.dir}/data`;
  const file = `${dataDir}/search/p1.vectors`;
  await seedTopics(store, "p1");
  const first = testService(store, { dataDir });
  await first.embedPending({ publisherId: "p1", max: 10_000 });
  assert.equal((await first.search("p1", "telescope", { limit: 5 })).mode, "hybrid");
  await first.close();
  const size = (await Deno.stat(file)).size;
  await Deno.remove(file);
  const second = testService(store, { dataDir });
  assert.equal((await second.search("p1", "telescope", { limit: 5 })).mode, "hybrid");
  assert.equal((await Deno.stat(file)).size, size);
  await second.close();
  // Another node adds an article while no service here runs: the snapshot is now stale.
  const other = testService(store);
  const fresh = await addArticle(store, "p1", "fresh", {
    title: "Comet",
    body: "A comet and a telescope.",
  });
  await other.embedPending({ publisherId: "p1" });
  await other.close();
  const third = testService(store, { dataDir });
  const hit = (await third.search("p1", "comet telescope", { limit: 30 })).hits.find((h) =>
    h.articleId === fresh
  );
  assert.ok(hit?.match, "the stale snapshot was refreshed from the store");
  await third.close();
  assert.ok((await Deno.stat(file)).size > size);
});

Deno.test("search() notices changes another node made, within a second", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addArticle(store, "p1", "a", { title: "Alpha", body: "alpha one" });
  let t = NOW.getTime();
  const node1 = testService(store, { embedder: fake, now: () => new Date(t) });
  const node2 = testService(store, { embedder: fake });
  await node1.embedPending();
  assert.equal((await node1.search("p1", "zeta", { limit: 5 })).hits.length, 1);
  const b = await addArticle(store, "p1", "b", { title: "Another", body: "alpha two" });
  await node2.embedPending();
  t += 1500;
  const hits = (await node1.search("p1", "zeta", { limit: 5 })).hits.map((h) => h.articleId);
  assert.ok(hits.includes(b));
  await node1.close();
  await node2.close();
});

Deno.test("search() with RM3 feedback finds an article sharing only the top hit's vocabulary", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addPublisher(store, "p2");
  const glider = await addArticle(store, "p1", "glider", {
    title: "Glider",
    body: "A glider wing with a laminar aerofoil and winglets.",
  });
  const aerofoil = await addArticle(store, "p1", "aerofoil", {
    title: "Stall tests",
    body: "Laminar aerofoil sections with winglets stall gently.",
  });
  await addArticle(store, "p1", "pasta", {
    title: "Pasta",
    body: "Boil the pasta in salted water.",
  });
  // Another publisher's article with the same words must never come back.
  await addArticle(store, "p2", "other", { title: "Other", body: "Laminar aerofoil winglets." });
  const plain = testService(store, { legs: "fts", feedback: { fts: null } });
  assert.deepEqual(
    (await plain.search("p1", "glider", { limit: 10 })).hits.map((h) => h.articleId),
    [
      glider,
    ],
  );
  const rm3 = testService(store, {
    legs: "fts",
    feedback: { fts: { docs: 1, terms: 3, weight: 0.5 } },
  });
  const hits = (await rm3.search("p1", "glider", { limit: 10 })).hits.map((h) => h.articleId);
  assert.deepEqual(hits, [glider, aerofoil]);
  await plain.close();
  await rm3.close();
});

Deno.test("search() with Rocchio feedback moves the ranking and keeps semantic matches", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const ids = await seedTopics(store, "p1");
  const legs: number[][] = [];
  const onLegs = (l: { semantic: { score: number }[] }) =>
    legs.push(l.semantic.map((h) => h.score));
  const on = testService(store, { feedback: { semantic: { docs: 3, beta: 4 } }, onLegs });
  const off = testService(store, { feedback: { semantic: null }, onLegs });
  await on.embedPending({ publisherId: "p1" });
  const a = await on.search("p1", "car driver", { limit: 10 });
  const b = await off.search("p1", "car driver", { limit: 10 });
  assert.equal(a.mode, "hybrid");
  assert.ok(a.hits.length > 0);
  assert.ok(a.hits.some((h) => h.articleId === ids.paraphrase && h.match?.snippet));
  // The moved query scores the semantic leg differently; its best hit is closer to it.
  assert.equal(legs.length, 2);
  assert.notDeepEqual(legs[0], legs[1]);
  assert.ok(legs[0][0] > legs[1][0]);
  assert.ok(b.hits.length > 0);
  await on.close();
  await off.close();
});

Deno.test("search() with fused Rocchio feedback takes its feedback articles from both legs", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  // The query's vector leans towards rockets, but only the Kepler article has the query's word.
  const embedder: Embedder = {
    id: "fake:orbit",
    dims: 3,
    embed: (texts) =>
      Promise.resolve(texts.map((t) => {
        if (/kepler/i.test(t)) return Float32Array.of(1, 0, 0);
        if (/rocket/i.test(t)) return Float32Array.of(0, 1, 0);
        if (/orbit/i.test(t)) return Float32Array.of(0.6, 0.8, 0);
        return Float32Array.of(0, 0, 1);
      })),
  };
  const kepler = await addArticle(store, "p1", "k1", { title: "Laws", body: "Kepler: an orbit." });
  const ellipses = await addArticle(store, "p1", "k2", { title: "Ellipses", body: "Kepler." });
  const rockets = await addArticle(store, "p1", "r1", { title: "Engines", body: "Rocket motors." });
  const semanticOrder = async (from: "semantic" | "fused") => {
    let order: string[] = [];
    const s = testService(store, {
      embedder,
      feedback: { semantic: { docs: 1, beta: 4, from } },
      onLegs: (l) => order = l.semantic.map((h) => h.articleId),
    });
    await s.embedPending({ publisherId: "p1" });
    await s.search("p1", "orbit", { limit: 10 });
    await s.close();
    return order;
  };
  // From its own first pass the semantic leg reinforces its mistake: rockets stay on top.
  assert.equal((await semanticOrder("semantic"))[0], rockets);
  // Fused, the full-text hit is the feedback article: the Kepler articles move up, including
  // the one without the query's word, which only the semantic leg can find.
  const fused = await semanticOrder("fused");
  assert.deepEqual(new Set(fused.slice(0, 2)), new Set([kepler, ellipses]));
  assert.equal(fused[2], rockets);
});

Deno.test("a repeated search is answered from the result cache until anything in the catalog changes", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addBook(store, "p1", "atlas", true);
  const ids = await seedTopics(store, "p1");
  const chapter = await addArticle(store, "p1", "atlas-1", {
    title: "Comet atlas",
    body: "A comet crossed the galaxy near the telescope.",
    kind: "chapter",
    bookId: "atlas",
    chapterNo: 1,
  });
  const search = testService(store);
  await search.embedPending({ publisherId: "p1", max: 10_000 });
  const ask = () => search.search("p1", "telescope comet galaxy", { limit: 10 });
  const ranked = (r: Awaited<ReturnType<typeof ask>>) => r.hits.map((h) => h.articleId);

  const first = await ask();
  assert.ok(ranked(first).includes(chapter));
  assert.equal(await ask(), first, "the same question answers the kept result");
  assert.notEqual(await search.search("p1", "telescope comet galaxy", { limit: 3 }), first);

  // Each change below is committed straight to the store, as another process would commit it.
  const db = store.db;
  await db.execute({
    sql: "UPDATE articles SET unpublished_at = ? WHERE id = ?",
    args: [NOW.getTime(), ids.astronomy0],
  });
  const unpublished = await ask();
  assert.notEqual(unpublished, first);
  assert.ok(
    !ranked(unpublished).includes(ids.astronomy0),
    "an unpublished article is gone at once",
  );

  await db.execute({
    sql: "UPDATE books SET rights_ceiling = ? WHERE id = 'atlas'",
    args: [JSON.stringify({ summarization: true, display: false, rag: false, fine_tuning: false })],
  });
  assert.ok(!ranked(await ask()).includes(chapter), "a book's withdrawn rag right applies at once");

  await db.execute({
    sql: "UPDATE articles SET title = 'Telescope comet galaxy survey' WHERE id = ?",
    args: [ids.cooking1],
  });
  // Full text sees the new title at once (its vector is redone later by the background loop).
  assert.ok(ranked(await ask()).includes(ids.cooking1), "an edited title is found at once");

  await db.execute({ sql: "DELETE FROM articles WHERE id = ?", args: [ids.cooking1] });
  assert.ok(!ranked(await ask()).includes(ids.cooking1), "a deleted article is gone at once");

  // Unchanged again: kept again.
  const settled = await ask();
  assert.equal(await ask(), settled);
  await search.close();
});

Deno.test("a search service without the result cache computes every search, and sees changes", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await seedTopics(store, "p1");
  const search = testService(store, { resultCache: false });
  await search.embedPending({ publisherId: "p1", max: 10_000 });
  const a = await search.search("p1", "telescope comet", { limit: 5 });
  const b = await search.search("p1", "telescope comet", { limit: 5 });
  assert.notEqual(a, b);
  assert.deepEqual(a, b);
  // What searches learnt about eligibility holds only while the catalog is unchanged.
  const gone = a.hits[0].articleId;
  await store.db.execute({
    sql: "UPDATE articles SET unpublished_at = ? WHERE id = ?",
    args: [NOW.getTime(), gone],
  });
  const c = await search.search("p1", "telescope comet", { limit: 5 });
  assert.ok(c.hits.length > 0 && !c.hits.some((h) => h.articleId === gone));
  await search.close();
});
