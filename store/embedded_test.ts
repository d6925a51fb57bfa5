import * as assert from "node:assert/strict";
import { LibsqlBatchError, LibsqlError, type ResultSet } from "@libsql/client";
import { createEmbeddedClient } from "./embedded.ts";

async function withClients(
  fn: (a: ReturnType<typeof createEmbeddedClient>, path: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/t.db`;
  const a = createEmbeddedClient(path, { timeoutMs: 2000 });
  try {
    await a.execute("PRAGMA journal_mode=WAL");
    await a.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, data BLOB)");
    await fn(a, path);
  } finally {
    a.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("rows are objects by column name; a join's repeated name keeps its first column", async () => {
  await withClients(async (db) => {
    await db.execute({ sql: "INSERT INTO t (name) VALUES (?)", args: ["a"] });
    const rs = await db.execute(
      "SELECT t.id, t.name, 'other' AS name, 7 AS n FROM t",
    );
    assert.deepEqual(rs.columns, ["id", "name", "name", "n"]);
    assert.deepEqual({ ...rs.rows[0] }, { id: 1, name: "a", n: 7 });
  });
});

Deno.test("arguments convert as @libsql/client converts them; blobs come back as ArrayBuffers", async () => {
  await withClients(async (db) => {
    const bytes = new Uint8Array([1, 2, 3, 250]);
    const w = await db.execute({
      sql: "INSERT INTO t (name, data) VALUES (:name, :data)",
      args: { ":name": "x", data: bytes },
    });
    assert.equal(w.rowsAffected, 1);
    assert.equal(w.lastInsertRowid, 1n);
    const rs = await db.execute({
      sql: "SELECT data, ? AS flag, ? AS at FROM t",
      args: [true, new Date(5000)],
    });
    const row = rs.rows[0];
    assert.ok(row.data instanceof ArrayBuffer);
    assert.deepEqual([...new Uint8Array(row.data as ArrayBuffer)], [1, 2, 3, 250]);
    assert.equal(row.flag, 1);
    assert.equal(row.at, 5000);
    await assert.rejects(
      () => db.execute({ sql: "SELECT ?", args: [undefined as unknown as null] }),
      TypeError,
    );
  });
});

Deno.test("a kept statement reads what another connection committed since (no pinned snapshot)", async () => {
  await withClients(async (db, path) => {
    await db.batch(["INSERT INTO t (name) VALUES ('a')", "INSERT INTO t (name) VALUES ('b')"]);
    const other = createEmbeddedClient(path, { timeoutMs: 2000 });
    try {
      const first = "SELECT name FROM t ORDER BY id LIMIT 1";
      assert.equal((await db.execute(first)).rows[0].name, "a");
      await other.execute("UPDATE t SET name = 'z' WHERE id = 1");
      assert.equal((await db.execute(first)).rows[0].name, "z");
      // The writer is not blocked by a reader's kept statements either.
      await other.execute("INSERT INTO t (name) VALUES ('c')");
      assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 3);
    } finally {
      other.close();
    }
  });
});

Deno.test("a failed statement maps to LibsqlError with SQLite's codes and can run again", async () => {
  await withClients(async (db) => {
    const insert = "INSERT INTO t (name) VALUES (?)";
    await db.execute({ sql: insert, args: ["dup"] });
    const err = await db.execute({ sql: insert, args: ["dup"] }).catch((e) => e);
    assert.ok(err instanceof LibsqlError);
    assert.equal(err.code, "SQLITE_CONSTRAINT");
    assert.equal(err.extendedCode, "SQLITE_CONSTRAINT_UNIQUE");
    await db.execute({ sql: insert, args: ["fresh"] });
    const bad = await db.execute("SELECT nope FROM t").catch((e) => e);
    assert.ok(bad instanceof LibsqlError);
    assert.match(bad.message, /no such column/);
  });
});

Deno.test("a batch is atomic: a failing statement rolls back the ones before it", async () => {
  await withClients(async (db) => {
    const err = await db.batch([
      { sql: "INSERT INTO t (name) VALUES (?)", args: ["one"] },
      { sql: "INSERT INTO t (name) VALUES (?)", args: ["one"] },
    ], "write").catch((e) => e);
    assert.ok(err instanceof LibsqlBatchError);
    assert.equal(err.statementIndex, 1);
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 0);
    // The shared connection is left outside any transaction.
    await db.execute("INSERT INTO t (name) VALUES ('after')");
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 1);
  });
});

Deno.test("interactive transactions: own connection, commit, rollback, closed afterwards", async () => {
  await withClients(async (db) => {
    const tx = await db.transaction("write");
    await tx.execute("INSERT INTO t (name) VALUES ('in-tx')");
    // Autocommit reads on the shared connection do not see the open transaction's write.
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 0);
    assert.equal((await tx.execute("PRAGMA synchronous")).rows[0].synchronous, 1);
    await tx.commit();
    assert.equal(tx.closed, true);
    await assert.rejects(() => tx.execute("SELECT 1"), /TRANSACTION_CLOSED/);
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 1);

    const undo = await db.transaction("write");
    await undo.execute("DELETE FROM t");
    await undo.rollback();
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 1);

    const dropped = await db.transaction("write");
    await dropped.execute("DELETE FROM t");
    dropped.close();
    assert.equal((await db.execute("SELECT count(*) AS n FROM t")).rows[0].n, 1);
    assert.equal((await db.execute("PRAGMA synchronous")).rows[0].synchronous, 1);
  });
});

Deno.test("read transactions run side by side; a closed client refuses work", async () => {
  await withClients(async (db) => {
    const txs = await Promise.all([1, 2, 3].map(() => db.transaction("read")));
    for (const tx of txs) assert.equal((await tx.execute("SELECT 1 AS one")).rows[0].one, 1);
    for (const tx of txs) tx.close();
    db.close();
    assert.equal(db.closed, true);
    await assert.rejects(() => db.execute("SELECT 1"), /CLIENT_CLOSED/);
    await assert.rejects(() => db.transaction("write"), /CLIENT_CLOSED/);
  });
});

Deno.test("a write batch waits for another connection's write lock without blocking the event loop", async () => {
  await withClients(async (a, path) => {
    // b's patience is not what is tested: a minute, so no slow machine runs it out.
    const b = createEmbeddedClient(path, { timeoutMs: 60_000 });
    const impatient = createEmbeddedClient(path, { timeoutMs: 30 });
    try {
      const tx = await a.transaction("write"); // holds the write lock, as another process would
      await tx.execute("INSERT INTO t (name) VALUES ('held')");
      let settled = false;
      const waiting = b.batch([{ sql: "INSERT INTO t (name) VALUES (?)", args: ["b"] }], "write")
        .finally(() => settled = true);
      // A blocking busy wait would hold this thread until b gave up: nothing below could run
      // while b waits, and the commit b waits for least of all.
      const late = await impatient.batch([{ sql: "INSERT INTO t (name) VALUES ('late')" }], "write")
        .catch((e) => e);
      assert.ok(late instanceof LibsqlError && late.code === "SQLITE_BUSY");
      assert.equal(settled, false, "b still waits while this process goes on");
      await tx.commit();
      await waiting;
      const names = await a.execute("SELECT name FROM t ORDER BY name");
      assert.deepEqual(names.rows.map((r) => r.name), ["b", "held"]);
      // The refused client's writer is clean and takes the next batch.
      await impatient.batch([{ sql: "INSERT INTO t (name) VALUES ('later')" }], "write");
      assert.equal((await a.execute("SELECT count(*) AS n FROM t")).rows[0].n, 3);
    } finally {
      b.close();
      impatient.close();
    }
  });
});

Deno.test("commitMark(): the same until anyone commits, then new; null before WAL and once closed", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/m.db`;
  const plain = createEmbeddedClient(path, { timeoutMs: 2000 });
  assert.equal(plain.commitMark(), null, "a store not yet in WAL mode has no -shm to read");
  plain.close();
  await withClients(async (a, path) => {
    await a.execute({ sql: "INSERT INTO t (name) VALUES (?)", args: ["a"] });
    const first = a.commitMark();
    assert.ok(first, "a WAL store has a mark");
    await a.execute("SELECT * FROM t");
    assert.deepEqual(a.commitMark(), first, "reads commit nothing");
    await a.batch([{ sql: "INSERT INTO t (name) VALUES (?)", args: ["b"] }], "write");
    const second = a.commitMark();
    assert.notDeepEqual(second, first, "this client's commit moves it");
    // Another client on the file: its own connections, as another process's would be.
    const b = createEmbeddedClient(path, { timeoutMs: 2000 });
    try {
      await b.execute({ sql: "UPDATE t SET name = ? WHERE name = ?", args: ["c", "b"] });
      assert.notDeepEqual(a.commitMark(), second, "another connection's commit moves it");
      const third = a.commitMark();
      await b.execute("UPDATE t SET name = 'c' WHERE name = 'nothing'");
      assert.deepEqual(a.commitMark(), third, "a write that changed no page changed nothing");
      await b.batch([{ sql: "DELETE FROM t WHERE name = ?", args: ["c"] }], "write");
      assert.notDeepEqual(a.commitMark(), third);
    } finally {
      b.close();
    }
  });
  const closed = createEmbeddedClient(path, { timeoutMs: 2000 });
  closed.close();
  assert.equal(closed.commitMark(), null);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a group's batch whose arguments cannot be stored fails alone, before any SQL", async () => {
  await withClients(async (db) => {
    const results = await db.batchGroup([
      [{ sql: "INSERT INTO t (name) VALUES (?)", args: ["kept"] }],
      [{ sql: "INSERT INTO t (name) VALUES (?)", args: [undefined as unknown as null] }],
      [{ sql: "INSERT INTO t (name) VALUES (?)", args: ["kept"] }],
      [{ sql: "INSERT INTO t (name) VALUES (?) RETURNING id", args: ["also"] }],
    ]);
    assert.ok(results[1] instanceof TypeError);
    assert.ok(results[2] instanceof LibsqlBatchError);
    assert.equal((results[2] as LibsqlBatchError).code, "SQLITE_CONSTRAINT");
    assert.equal((results[2] as LibsqlBatchError).extendedCode, "SQLITE_CONSTRAINT_UNIQUE");
    assert.equal((results[3] as ResultSet[])[0].rows[0].id, 2);
    const names = await db.execute("SELECT name FROM t ORDER BY id");
    assert.deepEqual(names.rows.map((r) => r.name), ["kept", "also"]);
  });
});

Deno.test("readAfterCommit(): this client's last commit's read while nothing else committed", async () => {
  await withClients(async (db, path) => {
    const SQL = "SELECT count(*) AS n FROM t";
    const read = () => db.readAfterCommit!(SQL, db.commitMark()!);
    await db.batch([{ sql: "INSERT INTO t (name) VALUES ('a')" }], "write");
    assert.equal(read(), null, "not registered until asked");
    await db.batch([{ sql: "INSERT INTO t (name) VALUES ('b')" }], "write");
    assert.deepEqual(read(), { n: 2 });
    await db.batchGroup([[{ sql: "INSERT INTO t (name) VALUES ('c')" }], [{
      sql: "INSERT INTO t (name) VALUES ('d')",
    }]]);
    assert.deepEqual(read(), { n: 4 });
    // Another connection's commit (another process's would be the same): the read is stale.
    const other = createEmbeddedClient(path, { timeoutMs: 2000 });
    try {
      await other.execute("INSERT INTO t (name) VALUES ('e')");
      assert.equal(read(), null);
      // This client's own autocommit write is not the writer's commit either.
      await db.batch([{ sql: "INSERT INTO t (name) VALUES ('f')" }], "write");
      await db.execute("INSERT INTO t (name) VALUES ('g')");
      assert.equal(read(), null);
    } finally {
      other.close();
    }
  });
});

Deno.test("a long write batch gives the event loop turns; readers see none of it until it commits", async () => {
  await withClients(async (db) => {
    // Tens of milliseconds of SQLite on any machine, many times WRITE_STRETCH_MS.
    const stmts = Array.from({ length: 20_000 }, (_, i) => ({
      sql: "INSERT INTO t (name, data) VALUES (?, randomblob(200))",
      args: [`n${i}`],
    }));
    const seen: number[] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) {
        await new Promise((r) => setTimeout(r, 0));
        seen.push(Number((await db.execute("SELECT COUNT(*) AS n FROM t")).rows[0].n));
      }
    })();
    await db.batch(stmts, "write");
    writing = false;
    await reader;
    assert.ok(seen.includes(0), `a read ran while the batch was open (saw ${seen.join(",")})`);
    assert.ok(seen.every((n) => n === 0 || n === 20_000), "never a part of the batch");
    const rs = await db.execute("SELECT COUNT(*) AS n FROM t");
    assert.equal(rs.rows[0].n, 20_000);
  });
});
