/**
 * The management API's view of content rules: each article's effective policy and price (and what
 * decided them), filters on it, explain for a URL, and reordering the rules.
 */
import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, logIn, sendJson, signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const SOURDOUGH = "https://demo.localhost/articles/the-microbes-behind-sourdough";
const SOLAR = "https://demo.localhost/articles/rooftop-solar-and-the-economics-of-self-generation";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function addRule(folio: TestFolio, rule: Body, key = demoKey(folio)): Promise<Body> {
  const res = await sendJson(folio, "POST", "/api/publisher/rules", rule, key);
  const body = await json<Body>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.rule;
}

async function articles(folio: TestFolio, query = "", key = demoKey(folio)): Promise<Body> {
  const res = await folio.request(`/api/publisher/articles?limit=200${query}`, { headers: key });
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

async function explain(folio: TestFolio, query: string, key = demoKey(folio)): Promise<Body> {
  const res = await folio.request(`/api/publisher/rules/explain?${query}`, { headers: key });
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

Deno.test("the article list shows each article's effective policy and price and what decided it", async () => {
  await using folio = await testFolio();
  const before = await articles(folio);
  assert.equal(before.total, 48);
  const byUrl = (list: Body) => new Map<string, Body>(list.articles.map((a: Body) => [a.url, a]));
  const sourdough = byUrl(before).get(SOURDOUGH)!;
  assert.equal(sourdough.policy, "OBSERVE");
  assert.deepEqual(sourdough.effective, {
    policy: "OBSERVE",
    priceUsdCents: 0,
    decidedBy: { kind: "default" },
  });
  for (const a of before.articles.filter((x: Body) => x.policy === "PAYWALL")) {
    // The article's own PAYWALL, at its override or else the demo's 2¢.
    assert.deepEqual(a.effective, {
      policy: "PAYWALL",
      priceUsdCents: a.priceUsdCents ?? 2,
      decidedBy: { kind: "article" },
    });
  }

  const rule = await addRule(folio, {
    name: "Sourdough is premium",
    priority: 5,
    match: { path: "/articles/the-microbes-behind-sourdough" },
    action: { policy: "PAYWALL", priceUsdCents: 4 },
  });
  const after = byUrl(await articles(folio)).get(SOURDOUGH)!;
  assert.equal(after.policy, "OBSERVE", "the stored policy is kept and shown");
  assert.deepEqual(after.effective, {
    policy: "PAYWALL",
    priceUsdCents: 4,
    decidedBy: { kind: "rule", ruleId: rule.id, ruleName: "Sourdough is premium" },
  });

  // policy filters on the effective policy, storedPolicy on the stored one.
  assert.equal((await articles(folio, "&policy=PAYWALL")).total, 9);
  assert.equal((await articles(folio, "&storedPolicy=PAYWALL")).total, 8);
  const moved = await articles(folio, "&policy=PAYWALL&storedPolicy=OBSERVE");
  assert.deepEqual(moved.articles.map((a: Body) => a.url), [SOURDOUGH]);
  assert.equal((await articles(folio, "&policy=OBSERVE")).total, 39);

  // Pages of an effective filter.
  const page = await json<Body>(
    await folio.request("/api/publisher/articles?policy=PAYWALL&limit=4&offset=4", {
      headers: demoKey(folio),
    }),
  );
  assert.deepEqual([page.articles.length, page.total, page.nextOffset], [4, 9, 8]);
  const last = await articles(folio, "&policy=PAYWALL&offset=8");
  assert.deepEqual([last.articles.length, last.nextOffset], [1, null]);
  const all = (await articles(folio, "&policy=PAYWALL")).articles.map((a: Body) => a.id);
  assert.deepEqual(
    [...page.articles, ...last.articles].map((a: Body) => a.id),
    all.slice(4),
  );
});

Deno.test("the article list evaluates territory rules for an optional reader country", async () => {
  await using folio = await testFolio();
  const deny = await addRule(folio, {
    name: "Not in Germany",
    priority: 1,
    match: { territories: ["DE"] },
    action: { deny: true },
  });
  // Without a country no territory rule matches.
  assert.equal((await articles(folio, "&policy=BLOCKED")).total, 0);
  const de = await articles(folio, "&policy=BLOCKED&country=de");
  assert.equal(de.total, 48);
  assert.deepEqual(de.articles[0].effective, {
    policy: "BLOCKED",
    priceUsdCents: 0,
    decidedBy: { kind: "rule", ruleId: deny.id, ruleName: "Not in Germany" },
  });
  assert.equal((await articles(folio, "&policy=BLOCKED&country=FR")).total, 0);
});

Deno.test("the article list refuses bad filters with the field and the reason", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const cases: [string, string][] = [
    ["policy=FREE", 'policy: must be one of "OBSERVE", "PAYWALL", "BLOCKED"'],
    ["storedPolicy=free", 'storedPolicy: must be one of "OBSERVE", "PAYWALL", "BLOCKED"'],
    ["country=DEU", "country: must be a two-letter country code"],
    ["country=ZZ", "country: is not an ISO 3166-1 alpha-2 country code"],
    ["colour=red", "colour: is not a known field"],
  ];
  for (const [query, message] of cases) {
    await assertInvalid(
      await folio.request(`/api/publisher/articles?${query}`, { headers: key }),
      message,
    );
  }
});

Deno.test("explain names the rule that applies to a URL or path, and the policy and price", async () => {
  await using folio = await testFolio();
  const premium = await addRule(folio, {
    name: "Premium solar",
    priority: 20,
    match: { path: "/articles/*solar*" },
    action: { policy: "PAYWALL", priceUsdCents: 5 },
  });
  const embargo = await addRule(folio, {
    name: "Embargo",
    priority: 10,
    match: { publishedWithinHours: 24 },
    action: { policy: "BLOCKED" },
  });
  const deny = await addRule(folio, {
    priority: 30,
    match: { territories: ["DE"] },
    action: { deny: true },
  });

  const byUrl = await explain(folio, `url=${encodeURIComponent(SOLAR)}`);
  assert.equal(byUrl.path, "/articles/rooftop-solar-and-the-economics-of-self-generation");
  assert.equal(byUrl.country, null);
  assert.equal(byUrl.at, folio.clock.now().toISOString());
  assert.equal(byUrl.rule.id, premium.id);
  assert.equal(byUrl.rule.name, "Premium solar");
  assert.deepEqual(byUrl.denials, []);
  assert.deepEqual(byUrl.effective, {
    policy: "PAYWALL",
    priceUsdCents: 5,
    decidedBy: { kind: "rule", ruleId: premium.id, ruleName: "Premium solar" },
  });
  assert.equal(byUrl.article.url, SOLAR);
  assert.deepEqual(byUrl.article.effective, byUrl.effective);

  const byPath = await explain(folio, `url=${encodeURIComponent(new URL(SOLAR).pathname)}`);
  assert.equal(byPath.article.id, byUrl.article.id);

  const fromGermany = await explain(folio, `url=${encodeURIComponent(SOLAR)}&country=de`);
  assert.equal(fromGermany.country, "DE");
  assert.deepEqual(fromGermany.denials.map((r: Body) => r.id), [deny.id]);
  assert.equal(fromGermany.effective.policy, "BLOCKED");
  assert.equal(fromGermany.effective.decidedBy.ruleId, deny.id);

  // A URL that is no article is evaluated as published at `at`: the embargo applies.
  const fresh = await explain(folio, "url=/articles/solar-tomorrow");
  assert.equal(fresh.article, null);
  assert.equal(fresh.rule.id, embargo.id);
  assert.equal(fresh.effective.policy, "BLOCKED");

  const elsewhere = await explain(
    folio,
    "url=https://demo.localhost/about&at=2030-01-01T00:00:00Z",
  );
  assert.equal(elsewhere.at, "2030-01-01T00:00:00.000Z");
  assert.equal(elsewhere.article, null);
  assert.equal(elsewhere.rule.id, embargo.id);

  // An old article is past the embargo and outside the premium path: nothing applies.
  const plain = await explain(folio, `url=${encodeURIComponent(SOURDOUGH)}`);
  assert.equal(plain.rule, null);
  assert.deepEqual(plain.effective, {
    policy: "OBSERVE",
    priceUsdCents: 0,
    decidedBy: { kind: "default" },
  });
});

Deno.test("explain refuses bad parameters and shows another publisher nothing of the demo", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const cases: [string, string][] = [
    ["", "url: is required"],
    ["url=ftp://demo.localhost/x", 'url: must be an http(s) URL or a path starting with "/"'],
    ["url=articles/x", 'url: must be an http(s) URL or a path starting with "/"'],
    ["url=/x&country=Germany", "country: must be a two-letter country code"],
    ["url=/x&country=ZZ", "country: is not an ISO 3166-1 alpha-2 country code"],
    [
      "url=/x&at=yesterday",
      "at: must be an ISO 8601 instant with a time zone, e.g. 2026-01-01T00:00:00Z",
    ],
    ["url=/x&verbose=1", "verbose: is not a known field"],
  ];
  for (const [query, message] of cases) {
    await assertInvalid(
      await folio.request(`/api/publisher/rules/explain?${query}`, { headers: key }),
      message,
    );
  }
  await addRule(folio, { priority: 1, action: { policy: "BLOCKED" } });
  const other = await signUp(folio);
  const seen = await explain(folio, `url=${encodeURIComponent(SOLAR)}`, bearer(other.apiKey));
  assert.equal(seen.article, null);
  assert.equal(seen.rule, null);
  assert.equal(seen.effective.policy, "OBSERVE");
});

Deno.test("rules are reordered by the full list of their ids, in one transaction", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const paywall = await addRule(folio, {
    name: "Paywall all",
    priority: 5,
    action: { policy: "PAYWALL" },
  });
  const block = await addRule(folio, {
    name: "Block all",
    priority: 7,
    action: { policy: "BLOCKED" },
  });
  const price = await addRule(folio, { priority: 9, action: { priceUsdCents: 9 } });
  assert.equal((await explain(folio, "url=/x")).rule.id, paywall.id);

  const res = await sendJson(folio, "POST", "/api/publisher/rules/order", {
    ids: [block.id, price.id, paywall.id],
  }, key);
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(body.rules.map((r: Body) => [r.id, r.priority]), [
    [block.id, 10],
    [price.id, 20],
    [paywall.id, 30],
  ]);
  const listed = await json<Body>(await folio.request("/api/publisher/rules", { headers: key }));
  assert.deepEqual(listed.rules, body.rules);
  // Evaluation follows the new order.
  assert.equal((await explain(folio, "url=/x")).rule.id, block.id);
  assert.equal((await explain(folio, "url=/x")).effective.policy, "BLOCKED");
});

Deno.test("reordering refuses anything but the exact set of the publisher's rules, changing nothing", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const a = await addRule(folio, { priority: 5, action: { policy: "PAYWALL" } });
  const b = await addRule(folio, { priority: 7, action: { policy: "BLOCKED" } });
  const other = await signUp(folio);
  const foreign = await addRule(
    folio,
    { priority: 1, action: { policy: "BLOCKED" } },
    bearer(other.apiKey),
  );
  const order = (body: unknown) => sendJson(folio, "POST", "/api/publisher/rules/order", body, key);
  const cases: [unknown, string][] = [
    [{ ids: [a.id] }, `ids: must list each of your 2 rules exactly once (missing ${b.id})`],
    [
      { ids: [a.id, b.id, foreign.id] },
      `ids: must list each of your 2 rules exactly once (not your rules: ${foreign.id})`,
    ],
    [
      { ids: [a.id, foreign.id] },
      `ids: must list each of your 2 rules exactly once (missing ${b.id}; not your rules: ${foreign.id})`,
    ],
    [{ ids: [b.id, a.id, a.id] }, "ids: must not repeat a rule"],
    [{ ids: "all" }, "ids: expected an array"],
    [{}, "ids: is required"],
    [{ ids: [b.id, a.id], extra: true }, "extra: is not a known field"],
  ];
  for (const [body, message] of cases) await assertInvalid(await order(body), message);
  const rules = await json<Body>(await folio.request("/api/publisher/rules", { headers: key }));
  assert.deepEqual(rules.rules.map((r: Body) => [r.id, r.priority]), [[a.id, 5], [b.id, 7]]);
  // The other publisher's own order is theirs alone.
  const theirs = await sendJson(folio, "POST", "/api/publisher/rules/order", {
    ids: [foreign.id],
  }, bearer(other.apiKey));
  assert.equal(theirs.status, 200);
  // One rule is counted in the singular.
  await assertInvalid(
    await sendJson(folio, "POST", "/api/publisher/rules/order", { ids: [] }, bearer(other.apiKey)),
    `ids: must list each of your 1 rule exactly once (missing ${foreign.id})`,
  );
  await theirs.body?.cancel();
});

Deno.test("a cookie session reorders only with the CSRF token", async () => {
  await using folio = await testFolio();
  const { apiKey, email } = await signUp(folio);
  const rule = await addRule(folio, { priority: 3, action: { policy: "PAYWALL" } }, bearer(apiKey));
  const { cookie, csrfToken } = await logIn(folio, email);
  const body = { ids: [rule.id] };
  const refused = await sendJson(folio, "POST", "/api/publisher/rules/order", body, { cookie });
  assert.equal(refused.status, 403);
  assert.equal((await json<Body>(refused)).error.code, "csrf_failed");
  const rules = await json<Body>(
    await folio.request("/api/publisher/rules", { headers: { cookie } }),
  );
  assert.equal(rules.rules[0].priority, 3);
  const ok = await sendJson(folio, "POST", "/api/publisher/rules/order", body, {
    cookie,
    "x-csrf-token": csrfToken,
  });
  assert.equal(ok.status, 200);
  assert.equal((await json<Body>(ok)).rules[0].priority, 10);
  const explained = await folio.request("/api/publisher/rules/explain?url=/x", {
    headers: { cookie },
  });
  assert.equal(explained.status, 200);
  await explained.body?.cancel();
});
