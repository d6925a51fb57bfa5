import assert from "node:assert/strict";
import { type InStatement, LibsqlBatchError } from "@libsql/client";
import { openStore } from "./db.ts";
import { createEmbeddedClient } from "./embedded.ts";
import { withWriteLock } from "./write_lock.ts";

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

Deno.test("write batches issued in one turn commit as one group; a failing batch fails alone", async () => {
  const dir = await Deno.makeTempDir();
  const inner = createEmbeddedClient(`${dir}/t.db`, { timeoutMs: 2000 });
  const groups: number[] = [];
  const spied = new Proxy(inner, {
    get(target, prop) {
      if (prop === "batchGroup") {
        return (g: InStatement[][]) => (groups.push(g.length), target.batchGroup(g));
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const db = withWriteLock(spied, `file:${dir}/t.db`);
  try {
    await db.execute("PRAGMA journal_mode=WAL");
    await db.execute("CREATE TABLE t (name TEXT UNIQUE)");
    const insert = (name: string) => ({ sql: "INSERT INTO t (name) VALUES (?)", args: [name] });
    const results = await Promise.allSettled(
      ["a", "b", "c", "d", "e"].map((x) =>
        db.batch([insert(`${x}1`), insert(x === "c" ? "a1" : `${x}2`)], "write")
      ),
    );
    assert.deepEqual(groups, [5]);
    assert.deepEqual(results.map((r) => r.status), [
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    const failed = (results[2] as PromiseRejectedResult).reason;
    assert.ok(failed instanceof LibsqlBatchError);
    assert.equal(failed.statementIndex, 1);
    // The failed batch's first insert (c1) was rolled back with it; the others all committed.
    const rows = await db.execute("SELECT name FROM t ORDER BY name");
    assert.deepEqual(rows.rows.map((r) => r.name), [
      "a1",
      "a2",
      "b1",
      "b2",
      "d1",
      "d2",
      "e1",
      "e2",
    ]);

    // A batch on its own commits as a plain batch; batches wait behind an open write transaction.
    await db.batch([insert("solo")], "write");
    assert.deepEqual(groups, [5]);
    const tx = await db.transaction("write");
    const queued = Promise.all([
      db.batch([insert("q1")], "write"),
      db.batch([insert("q2")], "write"),
    ]);
    await new Promise((r) => setTimeout(r, 5));
    await tx.execute(insert("tx"));
    await tx.commit();
    await queued;
    assert.deepEqual(groups, [5, 2]);
    const n = await db.execute(
      "SELECT COUNT(*) AS n FROM t WHERE name IN ('solo', 'tx', 'q1', 'q2')",
    );
    assert.equal(n.rows[0].n, 4);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
