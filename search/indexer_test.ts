import assert from "node:assert/strict";
import { publishersWithWork } from "./indexer.ts";
import { addArticle, addPublisher, tempStore, testService } from "./_test_utils.ts";

Deno.test("publishersWithWork() lists publishers with dirty articles or unembedded chunks only", async () => {
  await using store = await tempStore();
  for (const p of ["p1", "p2", "p3"]) await addPublisher(store, p);
  await addArticle(store, "p1", "a", { title: "Tides", body: "Harbour tides and mooring lines." });
  await addArticle(store, "p2", "b", { title: "Wings", body: "Swept wings flutter at speed." });
  assert.deepEqual((await publishersWithWork(store.db)).toSorted(), ["p1", "p2"]); // dirty
  const search = testService(store);
  await search.embedPending();
  assert.deepEqual(await publishersWithWork(store.db), []);
  // A chunk without a vector is work, until it has failed five times.
  await store.db.execute("UPDATE chunks SET embedding = NULL WHERE publisher_id = 'p2'");
  assert.deepEqual(await publishersWithWork(store.db), ["p2"]);
  await store.db.execute("UPDATE chunks SET embed_attempts = 5 WHERE publisher_id = 'p2'");
  assert.deepEqual(await publishersWithWork(store.db), []);
  await search.close();
});
