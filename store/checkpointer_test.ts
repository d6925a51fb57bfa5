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

Deno.test("under a stream of commits the thread makes the WAL start over past its threshold, so no commit checkpoints it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-ckpt-" });
  const path = `${dir}/folio.db`;
  const store = await openStore(`file:${path}`, { now: new Date() });
  const checkpoints = startCheckpointer(store.db, store.path, {
    intervalMs: 20,
    restartPages: 200,
  })!;
  try {
    await store.db.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)");
    // A 10 MB book's import: a commit after another with a turn between a few (about 9,400 WAL
    // frames in all). A PASSIVE checkpoint alone never finds the WAL wholly copied when the next
    // commit begins, so the WAL grew with every frame (4,481-9,393 here without the RESTART).
    for (let i = 0; i < 3000; i++) {
      await store.db.batch(
        [{ sql: "INSERT INTO filler (text) VALUES (?)", args: ["x".repeat(3500)] }],
        "write",
      );
      if (i % 5 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    const page = Number((await store.db.execute("PRAGMA page_size")).rows[0].page_size);
    // The file keeps the length of the longest the WAL has been: frames of a header and a page.
    const frames = ((await Deno.stat(`${path}-wal`)).size - 32) / (24 + page);
    assert.ok(frames < 2000, `the WAL reached ${frames} frames (restart past 200)`);
    const rs = await store.db.execute("SELECT COUNT(*) AS n FROM filler");
    assert.equal(rs.rows[0].n, 3000);
  } finally {
    await checkpoints.stop();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
