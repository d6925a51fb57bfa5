import assert from "node:assert/strict";
import { openStore } from "./db.ts";

Deno.test("concurrent write transactions in one process queue instead of deadlocking", async () => {
  const dir = await Deno.makeTempDir();
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  try {
    await store.db.execute("CREATE TABLE counter (n INTEGER NOT NULL)");
    await store.db.execute("INSERT INTO counter VALUES (0)");
    // Each transaction awaits between its read and its write, the pattern that deadlocks a
    // synchronous driver with several pooled connections; plain writes and reads interleave.
    await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      if (i % 5 === 0) {
        await store.db.execute("UPDATE counter SET n = n + 0");
        await store.db.execute("SELECT n FROM counter");
        return;
      }
      const tx = await store.db.transaction("write");
      try {
        const n = Number((await tx.execute("SELECT n FROM counter")).rows[0].n);
        await new Promise((r) => setTimeout(r, 1));
        await tx.execute({ sql: "UPDATE counter SET n = ?", args: [n + 1] });
        await tx.commit();
      } finally {
        tx.close();
      }
    }));
    const n = Number((await store.db.execute("SELECT n FROM counter")).rows[0].n);
    assert.equal(n, 40);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed write transaction releases the lock for the next writer", async () => {
  const dir = await Deno.makeTempDir();
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  try {
    await store.db.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)");
    const tx = await store.db.transaction("write");
    await assert.rejects(() => tx.execute("INSERT INTO missing VALUES (1)"));
    tx.close();
    await store.db.execute("INSERT INTO t VALUES (1)");
    assert.equal((await store.db.execute("SELECT COUNT(*) AS c FROM t")).rows[0].c, 1);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two clients on one file in one process share the write queue", async () => {
  const dir = await Deno.makeTempDir();
  const a = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const b = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  try {
    await a.db.execute("CREATE TABLE counter (n INTEGER NOT NULL)");
    await a.db.execute("INSERT INTO counter VALUES (0)");
    await Promise.all(Array.from({ length: 30 }, async (_, i) => {
      const tx = await (i % 2 ? a : b).db.transaction("write");
      try {
        const n = Number((await tx.execute("SELECT n FROM counter")).rows[0].n);
        await new Promise((r) => setTimeout(r, 1));
        await tx.execute({ sql: "UPDATE counter SET n = ?", args: [n + 1] });
        await tx.commit();
      } finally {
        tx.close();
      }
    }));
    assert.equal(Number((await b.db.execute("SELECT n FROM counter")).rows[0].n), 30);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});
