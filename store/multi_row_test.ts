import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { multiRowInserts } from "./multi_row.ts";

Deno.test("multiRowInserts() writes every row once, in order, in chunks of 32, 8 and 1", async () => {
  assert.deepEqual(multiRowInserts("t", ["a"], []), []);
  const rows = Array.from({ length: 45 }, (_, i) => [i, `row ${i}`, i % 3 ? null : i * 1.5]);
  const statements = multiRowInserts("t", ["n", "label", "x"], rows);
  assert.deepEqual(statements.map((s) => s.args.length / 3), [32, 8, 1, 1, 1, 1, 1]);
  assert.equal(new Set(statements.map((s) => s.sql)).size, 3);
  const db = createClient({ url: ":memory:" });
  await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, label TEXT, x REAL)");
  await db.batch(statements, "write");
  const back = (await db.execute("SELECT n, label, x FROM t ORDER BY id")).rows;
  assert.deepEqual(back.map((r) => [r.n, r.label, r.x]), rows);
});
