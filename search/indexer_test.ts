import assert from "node:assert/strict";
import type { Client, InStatement } from "@libsql/client";
import { chunksOfArticles } from "../store/chunks.ts";
import { chunkArticle } from "./chunker.ts";
import { publishersWithWork } from "../store/search_index.ts";
import { rechunk, RECHUNK_BYTES } from "./indexer.ts";
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

Deno.test("rechunk() writes about RECHUNK_BYTES of text per batch, and chunks every article", async () => {
  await using store = await tempStore();
  await addPublisher(store, "p1");
  // Long chapters, 400 KB each: a slice (RECHUNK_BYTES) holds one, or a few if it grows.
  const paragraph = (i: number) =>
    `Chapter ${i} tells of harbour tides and mooring lines, swept wings and the ${i}th voyage.`;
  const body = (i: number) => Array.from({ length: 4800 }, () => paragraph(i)).join("\n\n");
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    ids.push(await addArticle(store, "p1", `ch${i}`, { title: `Chapter ${i}`, body: body(i) }));
  }
  const gone = await addArticle(store, "p1", "gone", { title: "Gone", body: "Soon deleted." });
  await store.db.execute({ sql: "DELETE FROM articles WHERE id = ?", args: [gone] });
  const batches: InStatement[][] = [];
  const counting = new Proxy(store.db, {
    get(target, key) {
      if (key !== "batch") return Reflect.get(target, key);
      return (statements: InStatement[], mode: "write") => {
        batches.push(statements);
        return target.batch(statements, mode);
      };
    },
  }) as Client;
  const order = [ids[0], ids[1], gone, ...ids.slice(2)];
  assert.deepEqual((await rechunk(counting, "p1", order)).toSorted(), order.toSorted());
  const articlesPerBatch = batches.map((b) =>
    new Set(
      b.filter((s) => typeof s !== "string" && /^INSERT INTO chunks/.test(s.sql))
        .map((s) => (s as { args: unknown[] }).args[2]),
    ).size
  );
  assert.ok(batches.length >= 2, `${batches.length} batches`);
  assert.ok(
    articlesPerBatch.every((n) => n <= Math.ceil(RECHUNK_BYTES / 400_000)),
    `${articlesPerBatch}`,
  );
  const stored = await chunksOfArticles(store.db, "p1", ids);
  for (const [i, id] of ids.entries()) {
    const expected = chunkArticle(id, body(i)).map((c) => c.text);
    assert.deepEqual(stored.filter((c) => c.articleId === id).map((c) => c.text), expected);
  }
  const dirty = await store.db.execute("SELECT COUNT(*) AS n FROM search_docs WHERE dirty = 1");
  assert.equal(Number(dirty.rows[0].n), 0);
  // Unchanged articles are not rewritten.
  assert.deepEqual(await rechunk(store.db, "p1", ids), []);
});
