import assert from "node:assert/strict";
import { openStore } from "./db.ts";
import { createEmbeddedClient } from "./embedded.ts";
import { UnchangedCache } from "./unchanged_cache.ts";

Deno.test("a kept row is answered while nothing is committed, and read again after any commit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-unchanged-" });
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const other = createEmbeddedClient(`${dir}/folio.db`, { timeoutMs: 2000 });
  try {
    await store.db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)");
    await store.db.execute("INSERT INTO kv VALUES ('a', 'one')");
    const cache = new UnchangedCache<string>(10);
    let reads = 0;
    const read = () =>
      cache.get(store.db, "a", async () => {
        reads++;
        const rs = await store.db.execute("SELECT v FROM kv WHERE k = 'a'");
        return String(rs.rows[0].v);
      });
    assert.equal(await read(), "one");
    assert.equal(await read(), "one");
    assert.equal(reads, 1, "nothing committed: no second read");
    // Another client's commit (its own connections, as another process's would be).
    await other.execute("UPDATE kv SET v = 'two' WHERE k = 'a'");
    assert.equal(await read(), "two");
    assert.equal(reads, 2);
    // A commit to any other row reads again too: the mark is the store's, not the row's.
    await other.execute("INSERT INTO kv VALUES ('b', 'x')");
    assert.equal(await read(), "two");
    assert.equal(reads, 3);
    // A client without marks (a remote store) reads every time.
    let remoteReads = 0;
    const remote = {} as never;
    await cache.get(remote, "a", () => Promise.resolve(String(++remoteReads)));
    await cache.get(remote, "a", () => Promise.resolve(String(++remoteReads)));
    assert.equal(remoteReads, 2);
  } finally {
    other.close();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
