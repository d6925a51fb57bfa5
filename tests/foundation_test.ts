import assert from "node:assert/strict";
import { createApp } from "../server/app.ts";
import { openStore, StoreError } from "../store/db.ts";
import { insertPublisher } from "../store/publishers.ts";
import { json, testFolio } from "./helpers.ts";

Deno.test("GET /api/health answers 200 with a measured store round trip", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/health");
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.ok, true);
  assert.equal(typeof body.dbLatencyMs, "number");
  assert.ok((body.dbLatencyMs as number) >= 0);
});

Deno.test("GET /api/health answers 503 when the store does not answer", async () => {
  await using folio = await testFolio();
  folio.store.db.close();
  const res = await folio.request("/api/health");
  assert.equal(res.status, 503);
  assert.deepEqual(await json(res), { ok: false, error: "The store did not answer" });
});

Deno.test("the demo publisher's host answers health too", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/health", { host: "demo.localhost" });
  assert.equal(res.status, 200);
  await res.body?.cancel();
});

Deno.test("unknown routes answer the one JSON error model", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/nope");
  assert.equal(res.status, 404);
  assert.deepEqual(await json(res), {
    error: { code: "not_found", message: "No route for GET /nope" },
  });
});

Deno.test("an unexpected error answers 500 without leaking its detail or stack", async () => {
  await using folio = await testFolio();
  const app = createApp(folio.deps);
  app.get("/boom", () => {
    throw new Error("secret detail at /internal/path.ts:12");
  });
  const res = await app.request("/boom", { headers: { "x-request-id": "req_test_12345" } });
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.ok(!text.includes("secret detail"));
  assert.ok(!text.includes(".ts:"));
  assert.match(text, /internal_error/);
  assert.match(text, /req_test_12345/);
  assert.equal(res.headers.get("x-request-id"), "req_test_12345");
  // The operator still gets the stack in the log.
  assert.ok(
    folio.logLines.some((l) => l.includes("secret detail") && l.includes("req_test_12345")),
  );
});

Deno.test("every response carries a request id", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/health");
  await res.body?.cancel();
  assert.match(res.headers.get("x-request-id") ?? "", /^req_[0-9A-Za-z]{16}$/);
});

Deno.test("the catalog lists the seeded demo publisher with its article count", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/marketplace/catalog");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const body = await json<{ publishers: Record<string, unknown>[]; rateCard: unknown }>(res);
  assert.equal(body.publishers.length, 1);
  const demo = body.publishers[0];
  assert.equal(demo.publisherId, "pub_demo");
  assert.equal(demo.name, "The Demo Ledger");
  assert.ok((demo.articleCount as number) >= 40);
  assert.equal(demo.mcpEndpoint, `${folio.config.baseUrl}/api/mcp/pub_demo`);
  assert.equal(demo.termsUrl, `${folio.config.baseUrl}/license/pub_demo`);
  assert.ok(body.rateCard);
});

Deno.test("FOLIO_SEED=0 starts with an empty catalog", async () => {
  await using folio = await testFolio({ env: { FOLIO_SEED: "0" } });
  assert.equal(folio.seeded, null);
  const body = await json<{ publishers: unknown[] }>(
    await folio.request("/api/marketplace/catalog"),
  );
  assert.deepEqual(body.publishers, []);
});

Deno.test("the home page lists the publishers and escapes what they typed", async () => {
  await using folio = await testFolio();
  await insertPublisher(folio.store.db, {
    id: "pub_x",
    slug: "x",
    name: "<script>alert(1)</script>",
  }, { now: folio.clock.now() });
  const res = await folio.request("/");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  const html = await res.text();
  assert.match(html, /The Demo Ledger/);
  assert.ok(!html.includes("<script>alert(1)</script>"));
});

Deno.test("restarting keeps all data and does not seed twice", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-test-" });
  try {
    {
      await using first = await testFolio({ dataDir });
      assert.ok(first.seeded);
      await insertPublisher(first.store.db, { id: "pub_kept", slug: "kept", name: "Kept" }, {
        now: first.clock.now(),
      });
    }
    await using second = await testFolio({ dataDir });
    assert.equal(second.seeded, null);
    const rs = await second.store.db.execute("SELECT slug FROM publishers ORDER BY slug");
    assert.deepEqual(rs.rows.map((r) => r.slug), ["demo", "kept"]);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("two instances on one data dir share it safely", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-test-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir });
    // Concurrent writers in two instances: WAL plus the busy timeout serialise them, none fails.
    const writes = [];
    for (let i = 0; i < 100; i++) {
      for (const [n, f] of [["a", a], ["b", b]] as const) {
        writes.push(insertPublisher(f.store.db, { id: `pub_${n}${i}`, slug: `${n}${i}`, name: n }, {
          now: f.clock.now(),
        }));
      }
    }
    await Promise.all(writes);
    for (const f of [a, b]) {
      const rs = await f.store.db.execute("SELECT COUNT(*) AS n FROM publishers");
      assert.equal(Number(rs.rows[0].n), 201);
    }
    const health = await b.request("/api/health");
    assert.equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("migrations are recorded once and re-opening changes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = `file:${dir}/folio.db`;
    const first = await openStore(url, { now: new Date() });
    const before = await first.db.execute("SELECT version, name FROM schema_migrations");
    first.close();
    const again = await openStore(url, { now: new Date() });
    const after = await again.db.execute("SELECT version, name FROM schema_migrations");
    assert.deepEqual(after.rows, before.rows);
    assert.equal(after.rows[0].name, "init");
    assert.equal(again.version, Number(after.rows.at(-1)!.version));
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a migration missing below the highest applied one still runs (branches merged side by side)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = `file:${dir}/folio.db`;
    const s = await openStore(url, { now: new Date() });
    // As a store that ran 0013 (budgets) from one branch before 0012 (buyer sessions) merged.
    await s.db.executeMultiple(`
      DROP TABLE buyer_sessions;
      ALTER TABLE buyers DROP COLUMN password_hash;
      DELETE FROM schema_migrations WHERE version = 12;
    `);
    s.close();
    const again = await openStore(url, { now: new Date() });
    const rs = await again.db.execute("SELECT name FROM schema_migrations WHERE version = 12");
    assert.equal(rs.rows[0]?.name, "buyer_sessions");
    await again.db.execute("SELECT token_hash FROM buyer_sessions LIMIT 1");
    await again.db.execute("SELECT password_hash FROM buyers LIMIT 1");
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a store with a newer schema is refused and left untouched", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = `file:${dir}/folio.db`;
    const s = await openStore(url, { now: new Date() });
    await s.db.execute(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)",
    );
    s.close();
    await assert.rejects(() => openStore(url, { now: new Date() }), (err: unknown) => {
      assert.ok(err instanceof StoreError);
      assert.match(err.message, /schema is version 9999, newer than this build's \d+/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt database file is refused with one clear sentence", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/folio.db`, "this is not a database ".repeat(200));
    await assert.rejects(
      () => openStore(`file:${dir}/folio.db`, { now: new Date() }),
      (err: unknown) => {
        assert.ok(err instanceof StoreError);
        assert.match(err.message, /^Cannot open the store at file:.*: the file is not a database/);
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a remote store URL is opened through libSQL's remote client, loaded on first use", async () => {
  const seen: string[] = [];
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("no database here", { status: 503 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  await assert.rejects(
    () => openStore(url, { authToken: "secret-token", now: new Date() }),
    (err: unknown) => {
      assert.ok(err instanceof StoreError);
      assert.ok(err.message.startsWith(`Cannot open the store at ${url}: `), err.message);
      assert.ok(!err.message.includes("secret-token"));
      return true;
    },
  );
  assert.ok(seen.length > 0, "the remote client asked the server");
});
