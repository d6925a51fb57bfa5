import assert from "node:assert/strict";
import { commonWords, ftsQuery, ftsSearch, publisherToken } from "./fts.ts";
import { addArticle, addPublisher, tempStore, testService } from "./_test_utils.ts";

Deno.test("ftsQuery() quotes every word and drops FTS operators", () => {
  const q = ftsQuery("p1", 'wing "lift" (drag) NEAR(flow body) mach* -heat col:umn ^start');
  assert.equal(
    q,
    `pub : "${publisherToken("p1")}" AND {title summary tags body} : (` +
      [
        '"wing"',
        '"lift"',
        '"drag"',
        '"near"',
        '"flow"',
        '"body"',
        '"mach"',
        '"heat"',
        '"col"',
        '"umn"',
        '"start"',
      ]
        .join(" OR ") +
      ")",
  );
  assert.equal(ftsQuery("p1", `"()*-:^ ,.!?`), null);
  assert.equal(ftsQuery("p1", "the and of")?.includes('"the"'), true); // only stop words: keep them
});

Deno.test("ftsSearch() survives hostile query text and matches across diacritics", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const naive = await addArticle(store, "p1", "n", {
    title: "A naive cafe",
    body: "Coffee at the naïve café.",
  });
  await addArticle(store, "p1", "t", {
    title: "Tokyo",
    body: "東京 is a city. Rockets 🚀 launch.",
  });
  const hostile = [
    '"',
    '""',
    "(",
    ")",
    "NEAR(a b)",
    "NEAR/2",
    "a*",
    "*",
    "-a",
    "a:b",
    "title:naive",
    "^x",
    "AND",
    "OR NOT",
    "x' OR 1=1 --",
    "\\",
    "{title}: x",
    "🚀",
    "\u0000",
    "a".repeat(5000),
  ];
  for (const q of hostile) await ftsSearch(store.db, "p1", q, { limit: 5 });
  assert.deepEqual(
    (await ftsSearch(store.db, "p1", "NAÏVE Cafe", { limit: 5 })).map((h) => h.articleId),
    [naive],
  );
  assert.deepEqual(
    (await ftsSearch(store.db, "p1", "title:naive", { limit: 5 })).map((h) => h.articleId),
    [naive],
  );
  assert.equal((await ftsSearch(store.db, "p1", "東京", { limit: 5 })).length, 1);
});

Deno.test("search() answers mode none for a query of only punctuation", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addArticle(store, "p1", "x", { title: "Anything", body: "Some words here." });
  const search = testService(store);
  for (const q of ["", "   ", "!!!", '"()*-', "🚀"]) {
    assert.deepEqual(await search.search("p1", q, { limit: 5 }), { mode: "none", hits: [] });
  }
  await search.close();
});

Deno.test("ftsSearch() counts a title match above a body match by default, and weighs as asked", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  const inBody = await addArticle(store, "p1", "b", {
    title: "Notes",
    body: "Something about turbulence here.",
  });
  const inTitle = await addArticle(store, "p1", "t", {
    title: "Turbulence",
    body: "Something else here too.",
  });
  const byDefault = await ftsSearch(store.db, "p1", "turbulence", { limit: 5 });
  assert.deepEqual(byDefault.map((h) => h.articleId), [inTitle, inBody], "FTS_WEIGHTS: title ×2");
  const flat = await ftsSearch(store.db, "p1", "turbulence", {
    limit: 5,
    weights: [0, 1, 1, 1, 1],
  });
  assert.equal(flat.length, 2);
  assert.equal(flat[0].score, flat[1].score, "flat, a title match counts as much as a body match");
  const weighted = await ftsSearch(store.db, "p1", "turbulence", {
    limit: 5,
    weights: [0, 8, 2, 2, 1],
  });
  assert.deepEqual(weighted.map((h) => h.articleId), [inTitle, inBody]);
});

Deno.test("commonWords() reads each word's document count once and keeps it in `known`", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  await addArticle(store, "p1", "one", { title: "Comet", body: "A telescope saw the comet." });
  const known = new Map([["comet", 900]]); // as if read before: in 90% of 1,000 documents
  const common = await commonWords(store.db, "comet telescope", { docs: 1000, known });
  assert.deepEqual([...common], ["comet"]);
  assert.equal(known.get("telescop"), 1, "the stem's count was read from the index");
  known.set("telescop", 500);
  const again = await commonWords(store.db, "telescope comet", { docs: 1000, known });
  assert.deepEqual([...again].sort(), ["comet", "telescope"], "and is not read again");
});

Deno.test("commonWords() finds a word whose FTS5 stem differs from Porter 1980's (technology)", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  for (let i = 0; i < 301; i++) {
    await addArticle(store, "p1", `t${i}`, { title: `Note ${i}`, body: "On technology." });
  }
  // 301 of (as if) 1,000 documents hold "technolog", FTS5's stem: above the 30% share.
  const common = await commonWords(store.db, "technology turbines", { docs: 1000 });
  assert.deepEqual([...common], ["technology"]);
});
