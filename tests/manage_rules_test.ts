import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, sendJson, signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const SOURDOUGH = "https://demo.localhost/articles/the-microbes-behind-sourdough";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function ruleRows(folio: TestFolio): Promise<number> {
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM content_rules");
  return Number(rs.rows[0].n);
}

async function articleIdOf(folio: TestFolio, url: string): Promise<string> {
  const rs = await folio.store.db.execute({
    sql: "SELECT id FROM articles WHERE url = ?",
    args: [url],
  });
  return String(rs.rows[0].id);
}

Deno.test("rules are stored in micros and shown in cents, in evaluation order", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const window = { start: "2026-11-01T00:00:00+01:00", end: "2026-12-01T00:00:00Z" };
  const premium = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 20,
    match: { path: "/articles/*solar*", publishedWithinHours: 48 },
    action: { policy: "PAYWALL", priceUsdCents: 0.5, window },
  }, key);
  assert.equal(premium.status, 201);
  const created = (await json<Body>(premium)).rule;
  assert.match(created.id, /^rule_/);
  assert.deepEqual(created.action, {
    policy: "PAYWALL",
    priceUsdCents: 0.5,
    window: { start: "2026-10-31T23:00:00.000Z", end: "2026-12-01T00:00:00.000Z" },
  });
  const first = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 5,
    action: { policy: "BLOCKED" },
  }, key);
  assert.equal(first.status, 201);
  await first.body?.cancel();
  const list = await json<Body>(await folio.request("/api/publisher/rules", { headers: key }));
  assert.deepEqual(list.rules.map((r: Body) => r.priority), [5, 20]);
  assert.deepEqual(list.rules[0].match, {});
  const row = await folio.store.db.execute({
    sql: "SELECT action FROM content_rules WHERE id = ?",
    args: [created.id],
  });
  assert.equal(JSON.parse(String(row.rows[0].action)).priceMicros, 5000);
});

Deno.test("rules refuse bad input with the field and the reason, and store nothing", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const cases: [unknown, string][] = [
    [{ priority: 1.5, action: { policy: "PAYWALL" } }, "priority: expected an integer"],
    [{ action: { policy: "PAYWALL" } }, "priority: is required"],
    [
      { priority: 1, match: { path: "premium/" }, action: { policy: "PAYWALL" } },
      'match.path: must start with "/" and contain no spaces, "?" or "#"',
    ],
    [
      { priority: 1, match: { territories: ["ZZ"] }, action: { deny: true } },
      "match.territories[0]: is not an ISO 3166-1 alpha-2 country code",
    ],
    [
      { priority: 1, match: { territories: ["FRA"] }, action: { deny: true } },
      "match.territories[0]: must be a two-letter country code",
    ],
    [
      { priority: 1, match: { territories: [] }, action: { deny: true } },
      "match.territories: must have at least 1 item",
    ],
    [{ priority: 1, action: { deny: true } }, "action.deny: a denial needs match.territories"],
    [
      { priority: 1, match: { territories: ["FR"] }, action: { deny: true, policy: "PAYWALL" } },
      "action.deny: cannot be combined with policy, priceUsdCents or window",
    ],
    [{ priority: 1, action: {} }, "action: must set policy, priceUsdCents or deny: true"],
    [
      { priority: 1, action: { deny: false } },
      "action: must set policy, priceUsdCents or deny: true",
    ],
    [
      { priority: 1, action: { policy: "FREE" } },
      'action.policy: must be one of "OBSERVE", "PAYWALL", "BLOCKED"',
    ],
    [{ priority: 1, action: { priceUsdCents: -2 } }, "action.priceUsdCents: must be at least 0"],
    [
      { priority: 1, match: { publishedWithinHours: 0 }, action: { policy: "PAYWALL" } },
      "match.publishedWithinHours: must be more than 0",
    ],
    [
      {
        priority: 1,
        action: {
          priceUsdCents: 1,
          window: { start: "2026-12-01T00:00:00Z", end: "2026-11-01T00:00:00Z" },
        },
      },
      "action.window.end: must be after action.window.start",
    ],
    [
      {
        priority: 1,
        action: { priceUsdCents: 1, window: { start: "yesterday", end: "2026-11-01T00:00:00Z" } },
      },
      "action.window.start: must be an ISO 8601 instant with a time zone, e.g. 2026-01-01T00:00:00Z",
    ],
    [
      {
        priority: 1,
        action: {
          policy: "PAYWALL",
          window: { start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z" },
        },
      },
      "action.window: bounds a price: set action.priceUsdCents too",
    ],
    [
      { priority: 1, match: { country: "FR" }, action: { deny: true } },
      "match.country: is not a known field",
    ],
  ];
  for (const [body, message] of cases) {
    await assertInvalid(await sendJson(folio, "POST", "/api/publisher/rules", body, key), message);
  }
  assert.equal(await ruleRows(folio), 0);
});

Deno.test("PATCH replaces the parts given and re-validates the whole rule", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const res = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 3,
    match: { territories: ["DE"] },
    action: { deny: true },
  }, key);
  const { rule } = await json<Body>(res);
  const url = `/api/publisher/rules/${rule.id}`;
  // Dropping the territories would leave a denial that POST refuses.
  await assertInvalid(
    await sendJson(folio, "PATCH", url, { match: {} }, key),
    "action.deny: a denial needs match.territories",
  );
  const moved = await sendJson(folio, "PATCH", url, { priority: 9 }, key);
  assert.equal(moved.status, 200);
  assert.deepEqual((await json<Body>(moved)).rule, { ...rule, priority: 9 });
  const changed = await sendJson(folio, "PATCH", url, {
    match: { path: "/articles/" },
    action: { policy: "PAYWALL", priceUsdCents: 3 },
  }, key);
  assert.deepEqual((await json<Body>(changed)).rule, {
    id: rule.id,
    name: null,
    priority: 9,
    match: { path: "/articles/" },
    action: { policy: "PAYWALL", priceUsdCents: 3 },
  });
  const gone = await folio.request(url, { method: "DELETE", headers: key });
  assert.equal(gone.status, 204);
  await gone.body?.cancel();
  const again = await folio.request(url, { method: "DELETE", headers: key });
  assert.equal(again.status, 404);
  await again.body?.cancel();
  assert.equal(await ruleRows(folio), 0);
});

Deno.test("does not return another publisher's rules, nor let it patch or delete them", async () => {
  await using folio = await testFolio();
  const res = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 1,
    action: { policy: "PAYWALL" },
  }, demoKey(folio));
  const { rule } = await json<Body>(res);
  const other = bearer((await signUp(folio, { slug: "other" })).apiKey);
  const list = await folio.request("/api/publisher/rules", { headers: other });
  assert.deepEqual(await json(list), { rules: [] });
  const p = await sendJson(
    folio,
    "PATCH",
    `/api/publisher/rules/${rule.id}`,
    { priority: 2 },
    other,
  );
  assert.equal(p.status, 404);
  await p.body?.cancel();
  const d = await folio.request(`/api/publisher/rules/${rule.id}`, {
    method: "DELETE",
    headers: other,
  });
  assert.equal(d.status, 404);
  await d.body?.cancel();
  const mine = await json<Body>(
    await folio.request("/api/publisher/rules", { headers: demoKey(folio) }),
  );
  assert.deepEqual(mine.rules, [rule]);
});

Deno.test("GET articles pages through the catalog and filters by policy and kind", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const page = await json<Body>(
    await folio.request("/api/publisher/articles?limit=5", { headers: key }),
  );
  assert.equal(page.total, 48);
  assert.equal(page.articles.length, 5);
  assert.equal(page.nextOffset, 5);
  assert.equal(page.articles[0].body, undefined);
  const next = await json<Body>(
    await folio.request("/api/publisher/articles?limit=5&offset=5", { headers: key }),
  );
  assert.equal(next.articles.length, 5);
  assert.ok(!next.articles.some((a: Body) => page.articles.some((b: Body) => b.id === a.id)));
  const paywalled = await json<Body>(
    await folio.request("/api/publisher/articles?policy=PAYWALL&limit=200", { headers: key }),
  );
  assert.equal(paywalled.total, 8);
  assert.ok(paywalled.articles.every((a: Body) => a.policy === "PAYWALL"));
  assert.equal(paywalled.nextOffset, null);
  const chapters = await json<Body>(
    await folio.request("/api/publisher/articles?kind=chapter", { headers: key }),
  );
  assert.equal(chapters.total, 0);
  for (
    const [query, message] of [
      ["limit=0", "limit: must be at least 1"],
      ["limit=abc", "limit: expected a number"],
      ["policy=FREE", 'policy: must be one of "OBSERVE", "PAYWALL", "BLOCKED"'],
      ["sort=title", "sort: is not a known field"],
    ]
  ) {
    await assertInvalid(
      await folio.request(`/api/publisher/articles?${query}`, { headers: key }),
      message,
    );
  }
});

Deno.test("PATCH article sets policy and price, and BLOCKED leaves search", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const id = await articleIdOf(folio, SOURDOUGH);
  const search = async () => {
    const res = await folio.request("/api/v1/articles/search?q=sourdough+microbes", {
      host: "demo.localhost",
    });
    return (await json<Body>(res)).results.map((r: Body) => r.id);
  };
  assert.ok((await search()).includes(id));
  // Search keeps derived state per article; it must hear about every change.
  const changed: string[] = [];
  const search_ = folio.deps.search;
  const original = search_.articleChanged.bind(search_);
  search_.articleChanged = (publisherId, articleId) => {
    changed.push(`${publisherId}/${articleId}`);
    return original(publisherId, articleId);
  };
  const paywall = await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, {
    policy: "PAYWALL",
    priceUsdCents: 1.5,
  }, key);
  assert.equal(paywall.status, 200);
  const { article } = await json<Body>(paywall);
  assert.equal(article.policy, "PAYWALL");
  assert.equal(article.priceUsdCents, 1.5);
  const row = await folio.store.db.execute({
    sql: "SELECT price_micros FROM articles WHERE id = ?",
    args: [id],
  });
  assert.equal(Number(row.rows[0].price_micros), 15_000);
  const blocked = await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, {
    policy: "BLOCKED",
  }, key);
  assert.equal((await json<Body>(blocked)).article.priceUsdCents, 1.5);
  assert.ok(!(await search()).includes(id));
  assert.deepEqual(changed, [`pub_demo/${id}`, `pub_demo/${id}`]);
  const cleared = await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, {
    priceUsdCents: null,
  }, key);
  assert.equal((await json<Body>(cleared)).article.priceUsdCents, null);
  for (
    const [body, message] of [
      [{}, "body: must set policy or priceUsdCents"],
      [{ policy: "FREE" }, 'policy: must be one of "OBSERVE", "PAYWALL", "BLOCKED"'],
      [{ priceUsdCents: "1" }, "priceUsdCents: expected a number"],
      [{ policy: "OBSERVE", title: "x" }, "title: is not a known field"],
    ] as const
  ) {
    await assertInvalid(
      await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, body, key),
      message,
    );
  }
  const missing = await sendJson(folio, "PATCH", "/api/publisher/articles/anope", {
    policy: "OBSERVE",
  }, key);
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("cannot patch another publisher's article", async () => {
  await using folio = await testFolio();
  const id = await articleIdOf(folio, SOURDOUGH);
  const other = bearer((await signUp(folio, { slug: "other" })).apiKey);
  const res = await sendJson(
    folio,
    "PATCH",
    `/api/publisher/articles/${id}`,
    { policy: "BLOCKED" },
    other,
  );
  assert.equal(res.status, 404);
  await res.body?.cancel();
  const rs = await folio.store.db.execute({
    sql: "SELECT policy FROM articles WHERE id = ?",
    args: [id],
  });
  assert.equal(rs.rows[0].policy, "OBSERVE");
  const list = await json<Body>(await folio.request("/api/publisher/articles", { headers: other }));
  assert.equal(list.total, 0);
});

Deno.test("calls, intents and coverage show this publisher's activity only", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const read = await folio.request(
    `/api/v1/articles/${encodeURIComponent(SOURDOUGH)}?last_user_prompt=how+does+sourdough+rise`,
    { host: "demo.localhost", headers: { "user-agent": "TestAgent/1.0" } },
  );
  assert.equal(read.status, 200);
  await read.body?.cancel();
  await folio.deps.callLog.flush();
  const calls = await json<Body>(await folio.request("/api/publisher/calls", { headers: key }));
  const call = calls.calls.find((c: Body) => c.tool === "_rest:get_article");
  assert.ok(call, JSON.stringify(calls));
  assert.equal(call.userAgent, "TestAgent/1.0");
  assert.equal(call.status, "ok");
  assert.equal(typeof call.latencyMs, "number");
  assert.equal(call.identity, undefined);
  const intents = await json<Body>(await folio.request("/api/publisher/intents", { headers: key }));
  assert.equal(intents.intents[0].prompt, "how does sourdough rise");
  assert.equal(intents.intents[0].articleId, await articleIdOf(folio, SOURDOUGH));
  const coverage = await json<Body>(
    await folio.request("/api/publisher/coverage", { headers: key }),
  );
  assert.equal(coverage.total, 48);
  assert.ok(coverage.embedded >= 0 && coverage.embedded <= 48);
  const other = bearer((await signUp(folio, { slug: "other" })).apiKey);
  assert.deepEqual(await json(await folio.request("/api/publisher/calls", { headers: other })), {
    calls: [],
    total: 0,
    nextCursor: null,
  });
  assert.deepEqual(await json(await folio.request("/api/publisher/intents", { headers: other })), {
    intents: [],
  });
  assert.deepEqual(await json(await folio.request("/api/publisher/coverage", { headers: other })), {
    embedded: 0,
    total: 0,
  });
});
