import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, sendJson, signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Settings = Record<string, any>;

const SOURDOUGH = "https://demo.localhost/articles/the-microbes-behind-sourdough";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function settings(folio: TestFolio, headers: Record<string, string>): Promise<Settings> {
  const res = await folio.request("/api/publisher/settings", { headers });
  assert.equal(res.status, 200);
  return await json<Settings>(res);
}

async function patch(folio: TestFolio, body: unknown, headers: Record<string, string>) {
  return await sendJson(folio, "PATCH", "/api/publisher/settings", body, headers);
}

Deno.test("PATCH settings merges: one toggle changes and everything else stays", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const before = await settings(folio, key);
  const res = await patch(folio, { toggles: { requireAuth: true } }, key);
  assert.equal(res.status, 200);
  const after = await json<Settings>(res);
  assert.deepEqual(after, { ...before, toggles: { ...before.toggles, requireAuth: true } });
  assert.deepEqual(await settings(folio, key), after);
});

Deno.test("PATCH settings names the field and the reason, and bad input changes nothing", async () => {
  await using folio = await testFolio();
  const key = demoKey(folio);
  const before = await settings(folio, key);
  const cases: [unknown, string][] = [
    [{ toggles: { publicRest: "yes" } }, "toggles.publicRest: expected a boolean"],
    [{ toggles: { publicRest: false, bogus: true } }, "toggles.bogus: is not a known field"],
    [
      { toggles: { publicRest: false }, paywallMeterLimit: 5000 },
      "paywallMeterLimit: must be at most 1000",
    ],
    [{ paywallMeterLimit: 2.5 }, "paywallMeterLimit: expected an integer"],
    [{ rights: { rag: null } }, "rights.rag: expected a boolean"],
    [{ pricingUsdCents: { display: -1 } }, "pricingUsdCents.display: must be at least 0"],
    [{ pricingUsdCents: { display: "2" } }, "pricingUsdCents.display: expected a number"],
    [
      { branding: { logoUrl: "http://x.test/logo.png" } },
      "branding.logoUrl: must be an https:// URL",
    ],
    [{ branding: { logoUrl: "javascript:alert(1)" } }, "branding.logoUrl: must be an https:// URL"],
    [
      { branding: { primaryColor: "red" } },
      "branding.primaryColor: must be a hex color such as #0f766e",
    ],
    [
      { branding: { font: "x;}</style><script>" } },
      "branding.font: may contain only letters, digits, spaces, commas, hyphens and quotes",
    ],
    [{ customDomain: "not a host" }, "customDomain: must be a host name such as news.example.com"],
    [{ customDomain: "10.0.0.1" }, "customDomain: must be a host name such as news.example.com"],
    [
      { robotsOrigin: "https://x.test/robots.txt" },
      "robotsOrigin: must be an http(s) origin such as https://news.example.com",
    ],
    [
      { sponsorTools: ["exfiltrate"] },
      'sponsorTools[0]: must be one of "cite_article", "publisher_info"',
    ],
    [{ sponsorTools: ["cite_article", "cite_article"] }, "sponsorTools: must not repeat a tool"],
    [
      { enterpriseTerms: { useCases: [], monthlyPriceUsdCents: 1, conditions: "" } },
      "enterpriseTerms.useCases: must have at least 1 item",
    ],
    [{ name: "" }, "name: must have at least 1 character"],
    [{ slug: "renamed" }, "slug: is not a known field"],
    [[1, 2], "body: must be a JSON object"],
  ];
  for (const [body, message] of cases) await assertInvalid(await patch(folio, body, key), message);
  assert.deepEqual(await settings(folio, key), before);
});

Deno.test("PATCH settings stores fractional cents as micros and every field round-trips", async () => {
  await using folio = await testFolio();
  const { apiKey, publisherId } = await signUp(folio, { slug: "acme" });
  const change = {
    name: "Acme Daily",
    branding: {
      logoUrl: "https://cdn.acme.test/logo.svg",
      primaryColor: "#112233",
      font: '"Source Serif", Georgia, serif',
    },
    rights: { fine_tuning: true, display: false },
    pricingUsdCents: { display: 0.5, rag: 1.25 },
    paywallMeterLimit: 0,
    robotsOrigin: "https://www.acme.test/",
    sponsorTools: ["publisher_info"],
    enterpriseTerms: {
      useCases: ["rag", "fine_tuning"],
      monthlyPriceUsdCents: 500_000,
      conditions: "One model family.",
    },
  };
  const res = await patch(folio, change, bearer(apiKey));
  assert.equal(res.status, 200);
  const s = await json<Settings>(res);
  assert.equal(s.name, "Acme Daily");
  assert.deepEqual(s.branding, change.branding);
  assert.deepEqual(s.rights, { summarization: true, display: false, rag: true, fine_tuning: true });
  assert.deepEqual(s.pricingUsdCents, { summarization: 0, display: 0.5, rag: 1.25 });
  assert.equal(s.paywallMeterLimit, 0);
  assert.equal(s.robotsOrigin, "https://www.acme.test");
  assert.deepEqual(s.sponsorTools, ["publisher_info"]);
  assert.deepEqual(s.enterpriseTerms, change.enterpriseTerms);
  const row = await folio.store.db.execute({
    sql: "SELECT prices, enterprise_terms FROM publishers WHERE id = ?",
    args: [publisherId],
  });
  assert.deepEqual(JSON.parse(String(row.rows[0].prices)), {
    summarization: 0,
    display: 5000,
    rag: 12500,
  });
  assert.equal(JSON.parse(String(row.rows[0].enterprise_terms)).monthlyPriceMicros, 5_000_000_000);
  const cleared = await patch(folio, { enterpriseTerms: null, robotsOrigin: null }, bearer(apiKey));
  const c = await json<Settings>(cleared);
  assert.equal(c.enterpriseTerms, null);
  assert.equal(c.robotsOrigin, null);
});

Deno.test("customDomain is unique, never the platform's host, and serves the publisher", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "http://platform.test" } });
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const taken = await patch(
    folio,
    { toggles: { a2a: true }, customDomain: "DEMO.localhost" },
    bearer(apiKey),
  );
  assert.equal(taken.status, 409);
  assert.equal((await json<Settings>(taken)).error.code, "domain_taken");
  assert.equal((await settings(folio, bearer(apiKey))).toggles.a2a, false);
  await assertInvalid(
    await patch(folio, { customDomain: "platform.test" }, bearer(apiKey)),
    "customDomain: is the platform's own host name",
  );
  const ok = await patch(
    folio,
    { customDomain: "News.Acme.test", toggles: { publicRest: true } },
    bearer(apiKey),
  );
  assert.equal(ok.status, 200);
  assert.equal((await json<Settings>(ok)).customDomain, "news.acme.test");
  const search = await folio.request("/api/v1/articles/search?q=solar", { host: "news.acme.test" });
  assert.equal(search.status, 200);
  assert.equal((await json<Settings>(search)).count, 0);
  // Keeping its own domain is not a conflict; the demo publisher still has its own.
  const same = await patch(folio, { customDomain: "news.acme.test" }, bearer(apiKey));
  assert.equal(same.status, 200);
  await same.body?.cancel();
});

Deno.test("PATCH toggles.publicRest false turns anonymous REST off on demo.localhost", async () => {
  await using folio = await testFolio();
  const before = await folio.request("/api/v1/articles/search?q=solar", { host: "demo.localhost" });
  assert.equal(before.status, 200);
  await before.body?.cancel();
  const res = await patch(folio, { toggles: { publicRest: false } }, demoKey(folio));
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const after = await folio.request("/api/v1/articles/search?q=solar", { host: "demo.localhost" });
  assert.equal(after.status, 404);
  assert.equal((await json<Settings>(after)).status, "rest_api_disabled");
});

Deno.test("PATCH rights.rag false removes the publisher's articles from search", async () => {
  await using folio = await testFolio();
  const before = await folio.request("/api/v1/articles/search?q=solar", { host: "demo.localhost" });
  assert.ok((await json<Settings>(before)).count > 0);
  const res = await patch(folio, { rights: { rag: false } }, demoKey(folio));
  assert.equal((await json<Settings>(res)).rights.rag, false);
  const after = await folio.request("/api/v1/articles/search?q=solar", { host: "demo.localhost" });
  assert.equal(after.status, 200);
  assert.equal((await json<Settings>(after)).count, 0);
});

Deno.test("a territory deny rule answers 451 to requesters from that territory", async () => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const rule = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 1,
    match: { territories: ["fr", "BE"] },
    action: { deny: true },
  }, demoKey(folio));
  assert.equal(rule.status, 201);
  assert.deepEqual((await json<Settings>(rule)).rule.match, { territories: ["FR", "BE"] });
  const path = `/api/v1/articles/${encodeURIComponent(SOURDOUGH)}?last_user_prompt=why+sourdough`;
  const fr = await folio.request(path, {
    host: "demo.localhost",
    headers: { "cf-ipcountry": "FR" },
  });
  assert.equal(fr.status, 451);
  assert.equal((await json<Settings>(fr)).status, "territory_blocked");
  const de = await folio.request(path, {
    host: "demo.localhost",
    headers: { "cf-ipcountry": "DE" },
  });
  assert.equal(de.status, 200);
  await de.body?.cancel();
});
