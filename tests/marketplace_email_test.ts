/** One buyer account per email (issue 12): refused with a clear 409, and migration 0011 on old stores. */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { loadMigrations, migrate } from "../store/db.ts";
import { testFolio } from "./helpers.ts";

Deno.test("a second buyer signup with the same email (any case) is refused and creates nothing", async () => {
  await using folio = await testFolio();
  const signup = (email: string) =>
    folio.request("/api/marketplace/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme AI", email }),
    });
  const count = async () =>
    Number((await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers")).rows[0].n);
  const first = await signup("ml@acme.example");
  assert.equal(first.status, 201);
  await first.body?.cancel();
  const before = await count();
  const again = await signup(" ML@Acme.Example ");
  assert.equal(again.status, 409);
  assert.deepEqual(await again.json(), {
    error: {
      code: "email_taken",
      message: "email: a buyer account with this email already exists",
    },
  });
  assert.equal(await count(), before, "no buyer, key or client was written");
  const other = await signup("research@acme.example");
  assert.equal(other.status, 201);
  await other.body?.cancel();
});

Deno.test("0011 keeps buyers that already share an email, and refuses new duplicates", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-migration-" });
  const db = createClient({ url: `file:${dir}/folio.db` });
  try {
    const all = await loadMigrations();
    const now = new Date("2026-11-15T12:00:00Z");
    await migrate(db, all.filter((m) => m.version < 11), { now });
    await db.execute(`INSERT INTO buyers (id, name, email, created_at) VALUES
      ('buy_a', 'A', 'same@example.test', 1), ('buy_b', 'B', 'SAME@example.test', 2)`);
    await migrate(db, all, { now });
    const rows = await db.execute("SELECT id, sole FROM buyers ORDER BY id");
    assert.deepEqual(rows.rows.map((r) => [r.id, r.sole]), [["buy_a", 1], ["buy_b", null]]);
    await assert.rejects(
      db.execute(`INSERT INTO buyers (id, name, email, created_at)
                  VALUES ('buy_c', 'C', 'Same@Example.test', 3)`),
      /UNIQUE constraint failed: buyers\.email/,
    );
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
