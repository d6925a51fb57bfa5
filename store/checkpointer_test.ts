import assert from "node:assert/strict";
import { openStore } from "./db.ts";
import { SAFETY_PAGES, startCheckpointer } from "./checkpointer.ts";

Deno.test("the checkpoint thread copies the WAL into the database file; the store's own threshold is only a bound", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-ckpt-" });
  const path = `${dir}/folio.db`;
  const store = await openStore(`file:${path}`, { now: new Date() });
  try {
    const threshold = async () =>
      Number((await store.db.execute("PRAGMA wal_autocheckpoint")).rows[0].wal_autocheckpoint);
    assert.equal(await threshold(), 1000, "SQLite's default without a thread");
    const checkpoints = startCheckpointer(store.db, store.path, { intervalMs: 20 })!;
    assert.ok(checkpoints);
    assert.equal(await threshold(), SAFETY_PAGES);
    await store.db.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)");
    const before = (await Deno.stat(path)).size;
    // About 400 pages, far below the bound: only the thread can have copied them.
    for (let i = 0; i < 400; i++) {
      await store.db.execute({
        sql: "INSERT INTO filler (text) VALUES (?)",
        args: ["x".repeat(3500)],
      });
    }
    const deadline = Date.now() + 30_000;
    while ((await Deno.stat(path)).size < before + 400 * 3500 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok((await Deno.stat(path)).size >= before + 400 * 3500, "the frames reached the file");
    await checkpoints.stop();
    assert.equal(await threshold(), 1000, "stopped: the default again");
    const rs = await store.db.execute("SELECT COUNT(*) AS n FROM filler");
    assert.equal(rs.rows[0].n, 400);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a remote store gets no checkpoint thread", () => {
  assert.equal(startCheckpointer({} as never, null), null);
});
