/** The buyer marketplace API over real HTTP: journey, bad input, keys and CORS. */
import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";

type Obj = Record<string, unknown>;

async function signup(folio: TestFolio, name = "Acme AI", email = "ops@acme.test") {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, email }),
  });
  assert.equal(res.status, 201);
  return await json<{ buyerId: string; apiKey: string }>(res);
}

function call(folio: TestFolio, key: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  if (init.body) headers.set("content-type", "application/json");
  return folio.request(path, { ...init, headers });
}

async function paywalledArticle(folio: TestFolio): Promise<string> {
  const rs = await folio.deps.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL' ORDER BY id LIMIT 1",
  );
  return String(rs.rows[0].id);
}

function readArticle(folio: TestFolio, key: string, id: string, idem?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (idem) headers["idempotency-key"] = idem;
  return folio.request(`/api/v1/articles/${id}?last_user_prompt=what%20happened`, {
    host: "demo.localhost",
    headers,
  });
}

async function ledgerRows(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT kind, price_micros FROM charges WHERE buyer_id = ? ORDER BY created_at, kind",
    args: [buyerId],
  });
  return rs.rows.map((r) => [String(r.kind), Number(r.price_micros)]);
}

Deno.test("a buyer signs up, reads a paywalled article (charged), subscribes, reads free, and sees usage and statement", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  assert.match(apiKey, /^mk_[0-9A-Za-z]{38}$/);

  const catalog = await json<{ publishers: Obj[]; rateCard: Obj }>(
    await folio.request("/api/marketplace/catalog"),
  );
  const demo = catalog.publishers.find((p) => p.publisherId === "pub_demo")!;
  assert.equal((demo.pricingUsdCents as Obj).display, 2);
  assert.equal((catalog.rateCard as { baseUsdCents: number }).baseUsdCents, 5000);

  const id = await paywalledArticle(folio);
  const first = await readArticle(folio, apiKey, id);
  assert.equal(first.status, 200);
  assert.ok(((await json(first)).article as Obj).body);
  assert.deepEqual(await ledgerRows(folio, buyerId), [["metered", 20_000]]);

  const sub = await call(folio, apiKey, "/api/marketplace/licenses", {
    method: "POST",
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["display"] }),
  });
  assert.equal(sub.status, 201);
  const subBody = await json(sub);
  assert.equal(subBody.state, "active");
  assert.equal(subBody.monthlyFeeUsdCents, 10_000);

  const second = await readArticle(folio, apiKey, id);
  assert.equal(second.status, 200);
  await second.body?.cancel();
  assert.deepEqual(await ledgerRows(folio, buyerId), [
    ["metered", 20_000],
    // Bought Nov 15 12:00 UTC: the rest of November, prorated to the second.
    ["subscription", 51_666_667],
  ], "the read under the license is not charged");

  await folio.deps.callLog.flush();
  const usage = await json<Obj>(await call(folio, apiKey, "/api/marketplace/usage"));
  assert.equal(usage.days, 30);
  assert.deepEqual(usage.usage, [{
    publisherId: "pub_demo",
    publisherName: demo.name,
    calls: 2,
    reads: 2,
    paywalls: 1,
  }]);
  assert.equal(usage.meteredTotalCents, 2);

  const st = await json<Obj>(await call(folio, apiKey, "/api/marketplace/statement"));
  assert.equal(st.month, "2026-11");
  // The subscription's line is exact in micros (5,166.6667 cents, prorated); cents are printed.
  assert.equal(st.subscriptionFeesUsdCents, 5_167);
  assert.equal(st.meteredUsdCents, 2);
  assert.equal(st.totalUsdCents, 5_169);
  const lines = st.lines as { amountUsdCents: number; amountUsdMicros: number }[];
  assert.deepEqual(lines.map((l) => l.amountUsdMicros).sort((a, b) => a - b), [
    20_000,
    51_666_667,
  ]);
  assert.deepEqual(lines.map((l) => l.amountUsdCents).sort((a, b) => a - b), [2, 5_167]);

  const invoice = await call(folio, apiKey, "/api/marketplace/statement/invoice?month=2026-11");
  assert.equal(invoice.status, 200);
  const html = await invoice.text();
  assert.match(html, /\$51\.69/);
  assert.match(html, /Acme AI/);

  const licenses = await json<{ licenses: Obj[] }>(
    await call(folio, apiKey, "/api/marketplace/licenses"),
  );
  assert.equal(licenses.licenses.length, 1);
  assert.equal(licenses.licenses[0].state, "active");
  const clients = await json<{ clients: Obj[] }>(
    await call(folio, apiKey, "/api/marketplace/clients"),
  );
  assert.equal(clients.clients[0].clientId, `buyer:${buyerId}`);
});

Deno.test("bad marketplace input gets a clear 400 naming the field and changes nothing", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const count = async (t: string) =>
    Number((await db.execute(`SELECT COUNT(*) AS n FROM ${t}`)).rows[0].n);
  const post = (path: string, body: string, key?: string) =>
    folio.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body,
    });
  const cases: [string, string, string][] = [
    ["{}", "name", "missing fields"],
    [JSON.stringify({ name: "A" }), "email", "missing email"],
    [JSON.stringify({ name: "A", email: "not-an-email" }), "email", "bad email"],
    [JSON.stringify({ name: "", email: "a@b.test" }), "name", "empty name"],
    [JSON.stringify({ name: 5, email: "a@b.test" }), "name", "non-string name"],
    ["[1,2]", "body", "array body"],
    ["{oops", "body", "malformed JSON"],
  ];
  for (const [body, field, why] of cases) {
    const res = await post("/api/marketplace/signup", body);
    assert.equal(res.status, 400, why);
    const err = (await json<{ error: { message: string } }>(res)).error;
    assert.ok(err.message.startsWith(field), `${why}: ${err.message}`);
  }
  assert.equal(await count("buyers"), 0);

  const { apiKey } = await signup(folio);
  const licenseCases: [Obj, number, string][] = [
    [{}, 400, "publisherId"],
    [{ publisherId: "pub_nope", useCases: ["display"] }, 404, "Publisher"],
    [{ publisherId: "pub_demo", useCases: [] }, 400, "useCases"],
    [{ publisherId: "pub_demo", useCases: ["telepathy"] }, 400, "useCases"],
    [{ publisherId: "pub_demo", useCases: "display" }, 400, "useCases"],
    [{ publisherId: "pub_demo", useCases: ["fine_tuning"] }, 400, "useCases"],
  ];
  for (const [body, status, starts] of licenseCases) {
    const res = await post("/api/marketplace/licenses", JSON.stringify(body), apiKey);
    assert.equal(res.status, status, JSON.stringify(body));
    const err = (await json<{ error: { message: string } }>(res)).error;
    assert.ok(err.message.startsWith(starts), err.message);
    if (body.useCases?.toString() === "fine_tuning") assert.match(err.message, /request_license/);
  }
  assert.equal(await count("licenses"), 0);
  assert.equal(await count("charges"), 0);

  for (const days of ["0", "91", "abc", "-1", "1.5", ""]) {
    const res = await call(folio, apiKey, `/api/marketplace/usage?days=${days}`);
    assert.equal(res.status, 400, `days=${days}`);
    assert.match((await json<{ error: { message: string } }>(res)).error.message, /^days/);
  }
  for (const days of ["1", "90"]) {
    const res = await call(folio, apiKey, `/api/marketplace/usage?days=${days}`);
    assert.equal(res.status, 200);
    assert.equal((await json(res)).days, Number(days));
  }
  for (const month of ["2026-13", "26-11", "2026-1", "now"]) {
    const res = await call(folio, apiKey, `/api/marketplace/statement?month=${month}`);
    assert.equal(res.status, 400, month);
    await res.body?.cancel();
  }

  const unknownClient = await post(
    "/api/marketplace/clients",
    JSON.stringify({ clientId: "nope" }),
    apiKey,
  );
  assert.equal(unknownClient.status, 404);
  await unknownClient.body?.cancel();
  const noClient = await post("/api/marketplace/clients", "{}", apiKey);
  assert.equal(noClient.status, 400);
  await noClient.body?.cancel();
});

Deno.test("POST /clients binds an OAuth client to one buyer: 201, then 200 for the same buyer, 409 for another", async () => {
  await using folio = await testFolio();
  await folio.deps.store.db.execute({
    sql: "INSERT INTO oauth_clients (id, kind, created_at) VALUES ('cli_x', 'dynamic', ?)",
    args: [folio.clock.now().getTime()],
  });
  const a = await signup(folio, "A", "a@a.test");
  const b = await signup(folio, "B", "b@b.test");
  const bind = (key: string, clientId: string) =>
    call(folio, key, "/api/marketplace/clients", {
      method: "POST",
      body: JSON.stringify({ clientId }),
    });
  const statuses = [];
  for (const [key, id] of [[a.apiKey, "cli_x"], [a.apiKey, "cli_x"], [b.apiKey, "cli_x"]]) {
    const res = await bind(key, id);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [201, 200, 409]);
  const other = await bind(b.apiKey, `buyer:${a.buyerId}`);
  assert.equal(other.status, 404, "another buyer's virtual client is not claimable");
  await other.body?.cancel();
  const list = await json<{ clients: Obj[] }>(
    await call(folio, a.apiKey, "/api/marketplace/clients"),
  );
  assert.deepEqual(list.clients.map((c) => c.clientId), [`buyer:${a.buyerId}`, "cli_x"]);
});

Deno.test("unknown, revoked and malformed keys get the identical 401; keys in the URL and cookies are refused", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  const rotated = await call(folio, apiKey, "/api/marketplace/rotate-key", { method: "POST" });
  const { apiKey: newKey } = await json<{ apiKey: string }>(rotated);
  const flipped = apiKey.slice(0, -1) + (apiKey.endsWith("A") ? "B" : "A");
  const unknown = "mk_" + "A".repeat(38);
  const bodies = new Set<string>();
  for (const key of [apiKey, flipped, unknown, "mk_short", "garbage"]) {
    const res = await call(folio, key, "/api/marketplace/licenses");
    assert.equal(res.status, 401, key);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="folio"');
    bodies.add(await res.text());
  }
  const none = await folio.request("/api/marketplace/usage");
  assert.equal(none.status, 401);
  bodies.add(await none.text());
  assert.equal(bodies.size, 1, "one identical body for every bad key");

  const inUrl = await folio.request(`/api/marketplace/usage?api_key=${newKey}`);
  assert.equal(inUrl.status, 401);
  await inUrl.body?.cancel();
  const inUrl2 = await call(folio, newKey, `/api/marketplace/usage?days=1&x=${newKey}`);
  assert.equal(inUrl2.status, 401, "even beside a good header");
  await inUrl2.body?.cancel();
  const cookie = await folio.request("/api/marketplace/usage", {
    headers: { cookie: `folio_session=${newKey}` },
  });
  assert.equal(cookie.status, 401);
  await cookie.body?.cancel();
  const ok = await call(folio, newKey, "/api/marketplace/usage");
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const rs = await folio.deps.store.db.execute("SELECT * FROM buyer_keys");
  const dump = JSON.stringify(rs.rows);
  assert.ok(!dump.includes(apiKey) && !dump.includes(newKey), "only hashes are stored");
  assert.ok(!folio.logLines.join("\n").match(/mk_[A-Za-z0-9]{20,}/), "no key in the logs");
});

Deno.test("rotation kills the old key on the very next request on both instances of one store", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-rot-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir, env: { FOLIO_SEED: "0" } });
    for (let run = 0; run < 5; run++) {
      const { apiKey } = await signup(a, `R${run}`, `r${run}@x.test`);
      for (const node of [a, b]) {
        const warm = await call(node, apiKey, "/api/marketplace/licenses");
        assert.equal(warm.status, 200);
        await warm.body?.cancel();
      }
      const rot = await call(a, apiKey, "/api/marketplace/rotate-key", { method: "POST" });
      const { apiKey: next } = await json<{ apiKey: string }>(rot);
      for (const node of [b, a]) {
        const old = await call(node, apiKey, "/api/marketplace/licenses");
        assert.equal(old.status, 401);
        await old.body?.cancel();
        const fresh = await call(node, next, "/api/marketplace/licenses");
        assert.equal(fresh.status, 200);
        await fresh.body?.cancel();
      }
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("marketplace CORS: open to any origin without credentials, preflight allows Authorization", async () => {
  await using folio = await testFolio();
  const cat = await folio.request("/api/marketplace/catalog", {
    headers: { origin: "https://x.test" },
  });
  assert.equal(cat.headers.get("access-control-allow-origin"), "*");
  assert.equal(cat.headers.get("access-control-allow-credentials"), null);
  await cat.body?.cancel();
  const pre = await folio.request("/api/marketplace/usage", {
    method: "OPTIONS",
    headers: {
      origin: "https://evil.test",
      "access-control-request-method": "GET",
      "access-control-request-headers": "authorization",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.equal(pre.headers.get("access-control-allow-credentials"), null);
  await pre.body?.cancel();
  const denied = await folio.request("/api/marketplace/usage", {
    headers: { origin: "https://evil.test" },
  });
  assert.equal(denied.status, 401);
  assert.equal(denied.headers.get("access-control-allow-credentials"), null);
  await denied.body?.cancel();
  const hook = await folio.request("/api/marketplace/webhooks/stripe", {
    method: "POST",
    body: "{}",
  });
  assert.equal(hook.status, 404, "no webhook without a processor");
  assert.equal(hook.headers.get("access-control-allow-origin"), null);
  await hook.body?.cancel();
});

Deno.test("a buyer's key reads only its own statement: another buyer's charges never appear", async () => {
  await using folio = await testFolio();
  const a = await signup(folio, "A", "a@a.test");
  const b = await signup(folio, "B", "b@b.test");
  const id = await paywalledArticle(folio);
  for (let i = 0; i < 3; i++) {
    const res = await readArticle(folio, a.apiKey, id);
    await res.body?.cancel();
  }
  const sa = await json<Obj>(await call(folio, a.apiKey, "/api/marketplace/statement"));
  const sb = await json<Obj>(await call(folio, b.apiKey, "/api/marketplace/statement"));
  assert.equal(sa.meteredUsdCents, 6);
  assert.equal(sa.buyerId, a.buyerId);
  assert.equal(sb.totalUsdCents, 0);
  assert.deepEqual(sb.lines, []);
});

Deno.test("the printable invoice escapes what buyers and publishers typed", async () => {
  await using folio = await testFolio();
  const evil = "<script>alert(1)</script>";
  const { apiKey } = await signup(folio, `Mallory ${evil}`, "m@x.test");
  const res = await call(folio, apiKey, "/api/marketplace/statement/invoice");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const html = await res.text();
  assert.ok(!html.includes(evil));
  assert.ok(html.includes("Mallory &lt;script"));
});

Deno.test("the checksum refuses 10,000 random mk_ strings before the store is asked", async () => {
  const { buyerForKey } = await import("../server/platform/identity.ts");
  const { randomBase62 } = await import("../server/platform/secrets.ts");
  let asked = 0;
  const db = new Proxy({}, {
    get() {
      asked++;
      throw new Error("the store was asked");
    },
  }) as Parameters<typeof buyerForKey>[0];
  let refused = 0;
  for (let i = 0; i < 10_000; i++) {
    await buyerForKey(db, `mk_${randomBase62(38)}`).catch((e) => {
      if (e.status === 401) refused++;
    });
  }
  assert.equal(refused, 10_000);
  assert.equal(asked, 0);
});

Deno.test("a double-clicked subscription without a processor buys one license and bills one fee", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const statuses = await Promise.all(Array.from({ length: 5 }, async () => {
    const res = await call(folio, apiKey, "/api/marketplace/licenses", {
      method: "POST",
      body: JSON.stringify({ publisherId: "pub_demo", useCases: ["rag", "display"] }),
    });
    await res.body?.cancel();
    return res.status;
  }));
  assert.deepEqual(statuses.sort(), [201, 409, 409, 409, 409]);
  // One prorated fee: 125 USD for 15.5 of November's 30 days.
  assert.deepEqual(await ledgerRows(folio, buyerId), [["subscription", 64_583_333]]);
});
