/** The vector index cache (search/index_cache.ts): what it tells the service after large loads. */
import assert from "node:assert/strict";
import { IndexCache } from "./index_cache.ts";
import { addPublisher, seedTopics, tempStore, testService } from "./_test_utils.ts";

Deno.test("afterLoads is called once loads have read its many vectors, then counts afresh", async () => {
  await using store = await tempStore();
  for (const p of ["p1", "p2"]) {
    await addPublisher(store, p);
    await seedTopics(store, p);
  }
  const search = testService(store);
  await search.embedPending({ max: 10_000 });
  await search.close();
  const embedderOf = async (publisherId: string) => {
    const rs = await store.db.execute({
      sql: `SELECT embedder, length(embedding) AS bytes, COUNT(*) AS n FROM chunks
            WHERE publisher_id = ?`,
      args: [publisherId],
    });
    const [row] = rs.rows;
    return { id: String(row.embedder), dims: Number(row.bytes) / 4, vectors: Number(row.n) };
  };
  const [e1, e2] = [await embedderOf("p1"), await embedderOf("p2")];
  assert.ok(e1.vectors > 0 && e2.vectors > 0);
  let calls = 0;
  let clock = 0;
  const cache = new IndexCache(store.db, null, () => clock, {
    vectors: Math.max(e1.vectors, e2.vectors) + 1,
    call: () => calls++,
  });
  assert.equal((await cache.get("p1", e1)).size > 0, true);
  assert.equal(calls, 0, "one publisher's vectors are fewer than the bound");
  clock += 10_000;
  await cache.get("p1", e1); // a check that finds nothing changed reads no vectors
  assert.equal(calls, 0);
  await cache.get("p2", e2);
  assert.equal(calls, 1, "the second load crossed the bound");
  clock += 10_000;
  await cache.get("p2", e2);
  assert.equal(calls, 1, "counted afresh after the call");
});
