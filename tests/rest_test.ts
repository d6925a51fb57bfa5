/** The publisher REST API over real HTTP: every row of docs/SPEC.md's error table, and bad inputs. */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { findArticle, listRecent, setArticlePolicy } from "../store/articles.ts";
import { getPublisher, insertPublisher, updatePublisher } from "../store/publishers.ts";
import { insertRule } from "../store/rules.ts";
import { recentIntents } from "../store/intents.ts";
import { recentCalls } from "../store/call_log.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";

const HOST = "demo.localhost";
const PROMPT = "What does the article say about heat pumps?";

async function anyArticle(folio: TestFolio, policy: "OBSERVE" | "PAYWALL" = "OBSERVE") {
  const all = await listRecent(folio.store.db, "pub_demo", { limit: 100 });
  return all.find((a) => a.policy === policy)!;
}

async function patchDemo(
  folio: TestFolio,
  patch: (p: NonNullable<Awaited<ReturnType<typeof getPublisher>>>) => void,
) {
  // A copy: the store hands out its cached publisher frozen.
  const p = structuredClone((await getPublisher(folio.store.db, "pub_demo"))!);
  patch(p);
  await updatePublisher(folio.store.db, p, { now: folio.clock.now() });
}

function get(folio: TestFolio, path: string, headers: Record<string, string> = {}) {
  return folio.request(path, { host: HOST, headers });
}

function articlePath(id: string, prompt: string | null = PROMPT) {
  const q = prompt === null ? "" : `?last_user_prompt=${encodeURIComponent(prompt)}`;
  return `/api/v1/articles/${encodeURIComponent(id)}${q}`;
}

Deno.test("search answers {count, mode, results} with the article fields docs/SPEC.md lists", async () => {
  await using folio = await testFolio();
  while (await folio.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* embed all */ }
  const res = await get(folio, "/api/v1/articles/search?query=heat%20pumps&limit=5");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const body = await json<{ count: number; mode: string; results: Record<string, unknown>[] }>(res);
  assert.equal(body.count, body.results.length);
  assert.ok(body.count > 0 && body.count <= 5);
  assert.ok(["hybrid", "fts", "semantic"].includes(body.mode));
  const first = body.results[0];
  for (const k of ["id", "url", "title", "author", "publishedAt", "summary", "tags"]) {
    assert.ok(k in first, `missing ${k}`);
  }
  assert.ok(!("body" in first));
  const withMatch = body.results.find((r) => r.match) as
    | { match: Record<string, string> }
    | undefined;
  if (withMatch) {
    assert.match(withMatch.match.chunkId, /^[a-z0-9]+#\d+$/);
    assert.equal(typeof withMatch.match.section, "string");
    assert.ok(withMatch.match.snippet.length <= 260);
  }
});

Deno.test("search accepts q as an alias and defaults limit to 10", async () => {
  await using folio = await testFolio();
  const res = await get(folio, "/api/v1/articles/search?q=the");
  const body = await json<{ count: number }>(res);
  assert.equal(res.status, 200);
  assert.ok(body.count <= 10);
});

Deno.test("search and passages refuse bad queries and limits and change nothing", async () => {
  await using folio = await testFolio();
  const bad = [
    ["", /query: is required/],
    ["?query=", /query: must not be empty/],
    ["?query=%20%20", /query: must not be empty/],
    [`?query=${"a".repeat(201)}`, /query: must be at most 200 characters/],
    ["?query=a%00b", /query: must not contain control characters/],
    ["?query=a%07b", /query: must not contain control characters/],
    ["?query=x&limit=0", /limit: must be a whole number from 1 to 50/],
    ["?query=x&limit=51", /limit: must be a whole number from 1 to 50/],
    ["?query=x&limit=abc", /limit: must be a whole number from 1 to 50/],
    ["?query=x&limit=-1", /limit: must be a whole number from 1 to 50/],
    ["?query=x&limit=2.5", /limit: must be a whole number from 1 to 50/],
  ] as const;
  for (const path of ["/api/v1/articles/search", "/api/v1/passages/search"]) {
    for (const [qs, message] of bad) {
      const res = await get(folio, path + qs);
      assert.equal(res.status, 400, path + qs);
      const body = await json(res);
      assert.equal(body.status, "invalid_request");
      assert.match(String(body.message), message);
    }
  }
  const ok = await get(folio, `/api/v1/articles/search?query=${"a".repeat(200)}&limit=50`);
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
});

Deno.test("get article answers 200 with the article and its license block", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  const res = await get(folio, articlePath(a.id));
  assert.equal(res.status, 200);
  const body = await json<{ article: Record<string, unknown>; license: Record<string, unknown> }>(
    res,
  );
  assert.equal(body.article.id, a.id);
  assert.equal(body.article.body, a.body);
  assert.equal(body.article.policy, "OBSERVE");
  assert.equal(body.license.licensor, "The Demo Ledger");
  assert.deepEqual(body.license.rights, {
    summarization: "granted",
    display: "granted",
    rag: "granted",
    fine_tuning: "denied",
  });
  assert.equal(body.license.termsUrl, `${folio.config.baseUrl}/license/pub_demo`);
  assert.match(String(body.license.requestVia), /request_license/);
  const terms = await folio.request(new URL(String(body.license.termsUrl)).pathname);
  assert.equal(terms.status, 200);
  assert.match(await terms.text(), /License terms: The Demo Ledger/);
});

Deno.test("get article finds an article by its URL, encoded or raw", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  const enc = await get(folio, articlePath(a.url));
  assert.equal((await json<{ article: { id: string } }>(enc)).article.id, a.id);
  const raw = await get(folio, `/api/v1/articles/${a.url}?last_user_prompt=x`);
  assert.equal((await json<{ article: { id: string } }>(raw)).article.id, a.id);
});

Deno.test("get article records the reader intent verbatim", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  const prompt = "Résumé: how do 'heat pumps' work? <b>now</b>\nline two";
  const res = await get(folio, articlePath(a.id, prompt));
  await res.body?.cancel();
  await folio.deps.callLog.flush(); // intents are written with the call log's batch
  const intents = await recentIntents(folio.store.db, "pub_demo", { limit: 5 });
  assert.equal(intents[0].prompt, prompt);
  assert.equal(intents[0].articleId, a.id);
  assert.equal(intents[0].surface, "rest");
});

Deno.test("get article answers license_limited with the summary when display is not granted", async () => {
  await using folio = await testFolio();
  await patchDemo(folio, (p) => (p.rights = { ...p.rights, display: false }));
  const a = await anyArticle(folio);
  const res = await get(folio, articlePath(a.id));
  assert.equal(res.status, 200);
  const body = await json<{ status: string; message: string; article: Record<string, unknown> }>(
    res,
  );
  assert.equal(body.status, "license_limited");
  assert.equal(body.article.summary, a.summary);
  assert.ok(!("body" in body.article));
  assert.match(body.message, new RegExp(`Cite ${a.url.replaceAll(".", "\\.")}`));
});

Deno.test("get article answers blocked for an article the publisher blocks for AI agents", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  await setArticlePolicy(folio.store.db, "pub_demo", a.id, {
    policy: "BLOCKED",
    now: folio.clock.now(),
  });
  const res = await get(folio, articlePath(a.id));
  assert.equal(res.status, 200);
  const body = await json<{ status: string; article: Record<string, unknown> }>(res);
  assert.equal(body.status, "blocked");
  assert.ok(!("body" in body.article) && !("summary" in body.article));
});

Deno.test("get article answers 403 license_denied naming request_license when no AI use is licensed", async () => {
  await using folio = await testFolio();
  await patchDemo(folio, (p) => (p.rights = { ...p.rights, display: false, summarization: false }));
  const a = await anyArticle(folio);
  const res = await get(folio, articlePath(a.id));
  assert.equal(res.status, 403);
  const body = await json<{ status: string; message: string }>(res);
  assert.equal(body.status, "license_denied");
  assert.match(body.message, /request_license/);
});

Deno.test("get article answers 451 territory_blocked when a rule excludes the requester's region", async () => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  await insertRule(folio.store.db, "pub_demo", {
    id: "rule_fr",
    priority: 1,
    match: { territories: ["FR"] },
    action: { deny: true },
    now: folio.clock.now(),
  });
  const a = await anyArticle(folio);
  const blocked = await get(folio, articlePath(a.id), { "cf-ipcountry": "fr" });
  assert.equal(blocked.status, 451);
  assert.equal((await json(blocked)).status, "territory_blocked");
  // Another region and an unknown region are not blocked.
  for (const country of ["DE", "XX"]) {
    const ok = await get(folio, articlePath(a.id), { "cf-ipcountry": country });
    assert.equal(ok.status, 200, country);
    await ok.body?.cancel();
  }
});

Deno.test("get article answers 400 missing_last_user_prompt, and refuses an 8001-character prompt", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  for (const path of [articlePath(a.id, null), articlePath(a.id, "")]) {
    const res = await get(folio, path);
    assert.equal(res.status, 400);
    assert.equal((await json(res)).status, "missing_last_user_prompt");
  }
  const long = await get(folio, articlePath(a.id, "p".repeat(8001)));
  assert.equal(long.status, 400);
  assert.match(String((await json(long)).message), /last_user_prompt: must be at most 8000/);
  const max = await get(folio, articlePath(a.id, "p".repeat(8000)));
  assert.equal(max.status, 200);
  await max.body?.cancel();
  // None of the refused reads left a reader intent.
  await folio.deps.callLog.flush();
  const intents = await recentIntents(folio.store.db, "pub_demo", { limit: 10 });
  assert.equal(intents.length, 1);
});

Deno.test("get article answers 404 article_not_found for unknown ids and ids that look like paths or SQL", async () => {
  await using folio = await testFolio();
  for (const id of ["nope", "../../etc/passwd", "1' OR '1'='1", "a1b2c3d4e5f6a7b8#0", "%00"]) {
    const res = await get(folio, articlePath(id));
    assert.equal(res.status, 404, id);
    assert.equal((await json(res)).status, "article_not_found", id);
  }
});

Deno.test("public REST off answers 404 rest_api_disabled, but a buyer key still works", async () => {
  await using folio = await testFolio();
  await patchDemo(folio, (p) => (p.toggles = { ...p.toggles, publicRest: false }));
  const search = await get(folio, "/api/v1/articles/search?q=energy");
  assert.equal(search.status, 404);
  assert.equal((await json(search)).status, "rest_api_disabled");
  const { apiKey } = await createBuyer(folio.store.db, { name: "Acme AI", email: "a@acme.test" }, {
    now: folio.clock.now(),
  });
  const withKey = await get(folio, "/api/v1/articles/search?q=energy", {
    authorization: `Bearer ${apiKey}`,
  });
  assert.equal(withKey.status, 200);
  await withKey.body?.cancel();
});

Deno.test("a publisher without a custom domain is reachable only with a buyer key", async () => {
  await using folio = await testFolio();
  await insertPublisher(folio.store.db, {
    id: "pub_nodomain",
    slug: "nodomain",
    name: "No Domain",
    toggles: {
      publicRest: true,
      a2a: false,
      mcpApps: false,
      requireAuth: false,
      consentScreen: false,
      subscriptionLinking: false,
    },
  }, { now: folio.clock.now() });
  const anon = await folio.request("/api/v1/publishers/pub_nodomain/articles/search?q=x");
  assert.equal(anon.status, 404);
  assert.equal((await json(anon)).status, "rest_api_disabled");
  const { apiKey } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const keyed = await folio.request("/api/v1/publishers/pub_nodomain/articles/search?q=x", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(keyed.status, 200);
  await keyed.body?.cancel();
});

Deno.test("an unknown publisher host answers 404 unknown_publisher_host", async () => {
  await using folio = await testFolio();
  for (const path of ["/api/v1/articles/search?q=x", articlePath("x")]) {
    const res = await folio.request(path, { host: "nobody.localhost" });
    assert.equal(res.status, 404);
    assert.equal((await json(res)).status, "unknown_publisher_host");
  }
});

Deno.test("bad buyer keys get one identical 401, and keys in the URL are refused", async () => {
  await using folio = await testFolio();
  const { apiKey, buyerId } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  await folio.store.db.execute({
    sql: "UPDATE buyer_keys SET revoked_at = 1 WHERE buyer_id = ?",
    args: [buyerId],
  });
  const bodies = new Set<string>();
  for (
    const auth of [`Bearer ${apiKey}`, "Bearer mk_nope", "Bearer mk_" + "A".repeat(38), "Basic abc"]
  ) {
    const res = await get(folio, "/api/v1/articles/search?q=x", { authorization: auth });
    assert.equal(res.status, 401, auth);
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="folio"');
    bodies.add(await res.text());
  }
  assert.equal(bodies.size, 1);
  const inUrl = await get(folio, `/api/v1/articles/search?q=x&api_key=${apiKey}`);
  assert.equal(inUrl.status, 401);
  await inUrl.body?.cancel();
});

Deno.test("anonymous PAYWALL reads use the meter per distinct article, then answer 402", async () => {
  await using folio = await testFolio();
  const paywalled = (await listRecent(folio.store.db, "pub_demo", { limit: 100 }))
    .filter((a) => a.policy === "PAYWALL");
  // Reading the same article again uses no second free read.
  for (let i = 0; i < 4; i++) {
    const res = await get(folio, articlePath(paywalled[0].id));
    assert.equal(res.status, 200, `re-read ${i + 1}`);
    await res.body?.cancel();
  }
  for (const a of paywalled.slice(1, 3)) {
    const res = await get(folio, articlePath(a.id));
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  // Three distinct articles used the demo's meter of 3: a fourth is refused with how to pay...
  const res = await get(folio, articlePath(paywalled[3].id));
  assert.equal(res.status, 402);
  const body = await json<Record<string, unknown>>(res);
  assert.equal(body.status, "payment_required");
  assert.ok(!("body" in (body.article as object)));
  assert.match(String(body.signup), /\/api\/marketplace\/signup$/);
  // ...while the articles already read stay readable this month.
  const again = await get(folio, articlePath(paywalled[1].id));
  assert.equal(again.status, 200);
  await again.body?.cancel();
  // A new month has a fresh meter.
  folio.clock.advance(31 * 24 * 3_600_000);
  const next = await get(folio, articlePath(paywalled[3].id));
  assert.equal(next.status, 200);
  await next.body?.cancel();
});

Deno.test("a buyer's PAYWALL read is charged once per idempotency key at the snapshot price", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio, "PAYWALL");
  const { apiKey, buyerId } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const headers = { authorization: `Bearer ${apiKey}`, "idempotency-key": "read-1" };
  const responses = await Promise.all(
    Array.from({ length: 5 }, () => get(folio, articlePath(a.id), headers)),
  );
  for (const r of responses) {
    assert.equal(r.status, 200);
    await r.body?.cancel();
  }
  const rows = await folio.store.db.execute({
    sql: "SELECT price_micros, kind, surface FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(rows.rows.length, 1);
  const expected = a.priceMicros ?? 20_000; // the article's override, else the demo's 2¢
  assert.equal(Number(rows.rows[0].price_micros), expected);
  // A later price change never alters the past charge.
  await setArticlePolicy(folio.store.db, "pub_demo", a.id, {
    priceMicros: 999_000,
    now: folio.clock.now(),
  });
  const after = await folio.store.db.execute({
    sql: "SELECT price_micros FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(after.rows[0].price_micros), expected);
  // Reusing the key for another article is refused and charges nothing.
  const other = (await listRecent(folio.store.db, "pub_demo", { limit: 100 })).find((x) =>
    x.policy === "PAYWALL" && x.id !== a.id
  )!;
  const reuse = await get(folio, articlePath(other.id), headers);
  assert.equal(reuse.status, 409);
  assert.equal((await json(reuse)).status, "idempotency_key_reused");
});

Deno.test("REST answers CORS preflights permissively and never allows credentials", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/v1/articles/search?q=x", {
    host: HOST,
    method: "OPTIONS",
    headers: {
      origin: "https://agent.example",
      "access-control-request-method": "GET",
      "access-control-request-headers": "authorization",
    },
  });
  assert.equal(res.status, 204);
  await res.body?.cancel();
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-allow-headers") ?? "", /authorization/i);
  assert.equal(res.headers.get("access-control-allow-credentials"), null);
});

Deno.test("REST calls are logged as _rest:<tool> with status and latency", async () => {
  await using folio = await testFolio();
  const a = await anyArticle(folio);
  for (const path of ["/api/v1/articles/search?q=x", articlePath(a.id), articlePath("nope")]) {
    const res = await get(folio, path, { "user-agent": "TestAgent/1.0" });
    await res.body?.cancel();
  }
  await folio.deps.callLog.flush();
  const calls = await recentCalls(folio.store.db, "pub_demo", { limit: 10 });
  assert.deepEqual(calls.map((c) => [c.tool, c.status, c.httpStatus]), [
    ["_rest:get_article", "error", 404],
    ["_rest:get_article", "ok", 200],
    ["_rest:search_articles", "ok", 200],
  ]);
  assert.ok(calls.every((c) => c.userAgent === "TestAgent/1.0" && c.latencyMs >= 0));
});

Deno.test("passages come with their article, section and license", async () => {
  await using folio = await testFolio();
  while (await folio.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* embed all */ }
  const res = await get(folio, "/api/v1/passages/search?q=coral%20reef%20restoration&limit=3");
  assert.equal(res.status, 200);
  const body = await json<{
    count: number;
    results: {
      chunkId: string;
      text: string;
      article: { id: string; url: string };
      license: { licensor: string };
    }[];
  }>(res);
  assert.ok(body.count > 0 && body.count <= 3);
  for (const p of body.results) {
    assert.match(p.chunkId, /^[a-z0-9]+#\d+$/);
    assert.equal(typeof p.text, "string");
    assert.ok(p.article.id && p.article.url);
    assert.equal(p.license.licensor, "The Demo Ledger");
  }
});

Deno.test("articles denied rag never appear in search", async () => {
  await using folio = await testFolio();
  await patchDemo(folio, (p) => (p.rights = { ...p.rights, rag: false }));
  const res = await get(folio, "/api/v1/articles/search?q=energy");
  const body = await json<{ count: number; mode: string }>(res);
  assert.equal(body.count, 0);
  assert.equal(body.mode, "none");
  const a = await findArticle(folio.store.db, "pub_demo", (await anyArticle(folio)).id);
  assert.ok(a);
});
