/** Unpublishing and republishing articles through the management API, on every agent surface. */
import assert from "node:assert/strict";
import { rpc, stateOf } from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { upsertArticle } from "../store/articles.ts";
import { demoIds } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, logIn, sendJson, signUp } from "./manage_helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const HOST = "demo.localhost";
const SOURDOUGH = "https://demo.localhost/articles/the-microbes-behind-sourdough";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function idOf(folio: TestFolio, url: string): Promise<string> {
  const rs = await folio.store.db.execute({
    sql: "SELECT id FROM articles WHERE url = ?",
    args: [url],
  });
  return String(rs.rows[0].id);
}

async function setPublished(
  folio: TestFolio,
  id: string,
  published: boolean,
  headers = demoKey(folio),
): Promise<Response> {
  const action = published ? "publish" : "unpublish";
  return await folio.request(`/api/publisher/articles/${id}/${action}`, {
    method: "POST",
    headers,
  });
}

async function restJson(folio: TestFolio, path: string, headers: Record<string, string> = {}) {
  const res = await folio.request(path, { host: HOST, headers });
  return { status: res.status, body: await json<Body>(res) };
}

/** What each agent surface shows of an article: found by search, listed, readable. */
async function seenByAgents(folio: TestFolio, id: string) {
  const search = await restJson(folio, "/api/v1/articles/search?q=sourdough+microbes&limit=50");
  const passages = await restJson(folio, "/api/v1/passages/search?q=sourdough+microbes&limit=50");
  const get = await restJson(folio, `/api/v1/articles/${id}?last_user_prompt=bread`);
  const recent = await mcpTool(folio, "list_recent", { limit: 50 });
  const mcpSearch = await mcpTool(folio, "search_articles", { query: "sourdough microbes" });
  const mcpGet = await mcpTool(folio, "get_article", { url_or_id: id });
  const a2a = await rpc(folio, "SendMessage", {
    message: {
      messageId: crypto.randomUUID(),
      role: "ROLE_USER",
      parts: [{ data: { skill: "get_article", url_or_id: id } }],
    },
  });
  const catalog = await json<Body>(await folio.request("/api/marketplace/catalog"));
  return {
    restSearch: search.body.results.some((r: Body) => r.id === id),
    restPassages: passages.body.results.some((r: Body) => r.article.id === id),
    restGet: get.status === 200 ? "found" : get.body.status,
    mcpList: recent.structuredContent.results.some((a: Body) => a.id === id),
    mcpSearch: mcpSearch.structuredContent.results.some((r: Body) => r.id === id),
    mcpGet: mcpGet.structuredContent.status,
    a2aGet: stateOf(a2a.body.result),
    catalogCount: catalog.publishers.find((p: Body) => p.publisherId === "pub_demo").articleCount,
  };
}

Deno.test("an unpublished article leaves search, listings and reads on every surface; republished it returns", async () => {
  await using folio = await testFolio();
  const id = await idOf(folio, SOURDOUGH);
  const visible = {
    restSearch: true,
    restPassages: true,
    restGet: "found",
    mcpList: true,
    mcpSearch: true,
    mcpGet: "full",
    a2aGet: "completed",
    catalogCount: 48,
  };
  assert.deepEqual(await seenByAgents(folio, id), visible);

  const res = await setPublished(folio, id, false);
  assert.equal(res.status, 200);
  const { article } = await json<Body>(res);
  assert.equal(article.id, id);
  assert.equal(article.published, false);
  assert.equal(article.unpublishedAt, folio.clock.now().toISOString());
  assert.deepEqual(await seenByAgents(folio, id), {
    restSearch: false,
    restPassages: false,
    restGet: "article_not_found",
    mcpList: false,
    mcpSearch: false,
    mcpGet: "article_not_found",
    a2aGet: "failed",
    catalogCount: 47,
  });

  // The management list still shows it, marked, and filters on it.
  const list = async (q: string) =>
    await json<Body>(
      await folio.request(`/api/publisher/articles?limit=200${q}`, {
        headers: demoKey(folio),
      }),
    );
  assert.deepEqual((await list("&published=false")).articles.map((a: Body) => a.id), [id]);
  assert.equal((await list("&published=true")).total, 47);
  assert.equal((await list("")).total, 48);
  assert.equal((await list("")).articles.find((a: Body) => a.id === id).published, false);

  // Unpublishing again changes nothing; publishing brings it back everywhere.
  folio.clock.advance(60_000);
  const again = await json<Body>(await setPublished(folio, id, false));
  assert.equal(again.article.unpublishedAt, article.unpublishedAt);
  const back = await setPublished(folio, id, true);
  assert.equal(back.status, 200);
  const republished = (await json<Body>(back)).article;
  assert.deepEqual([republished.published, republished.unpublishedAt], [true, null]);
  assert.deepEqual(await seenByAgents(folio, id), visible);
});

Deno.test("unpublishing keeps the ledger: charges, calls and intents of the article stay", async () => {
  await using folio = await testFolio();
  const [paid] = await demoIds(folio, "PAYWALL");
  const { apiKey, buyerId } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const read = await restJson(folio, `/api/v1/articles/${paid}?last_user_prompt=why`, {
    authorization: `Bearer ${apiKey}`,
  });
  assert.equal(read.status, 200);
  await folio.deps.callLog.flush();
  const count = async (table: string, where: string, arg: string) =>
    Number(
      (await folio.store.db.execute({
        sql: `SELECT COUNT(*) AS n FROM ${table} WHERE ${where} = ?`,
        args: [arg],
      })).rows[0].n,
    );
  const before = [
    await count("charges", "buyer_id", buyerId),
    await count("reader_intents", "article_id", paid),
    await count("call_log", "identity", `buyer:${buyerId}`),
  ];
  assert.deepEqual(before, [1, 1, 1]);
  const res = await setPublished(folio, paid, false);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const gone = await restJson(folio, `/api/v1/articles/${paid}?last_user_prompt=why`, {
    authorization: `Bearer ${apiKey}`,
  });
  assert.equal(gone.status, 404);
  await folio.deps.callLog.flush();
  assert.deepEqual([
    await count("charges", "buyer_id", buyerId),
    await count("reader_intents", "article_id", paid),
    await count("call_log", "identity", `buyer:${buyerId}`),
  ], [1, 1, 2]);
});

Deno.test("unpublishing survives a restart", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-unpublish-" });
  try {
    let id: string;
    {
      await using folio = await testFolio({ dataDir });
      id = await idOf(folio, SOURDOUGH);
      const res = await setPublished(folio, id, false);
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    await using again = await testFolio({ dataDir });
    const get = await restJson(again, `/api/v1/articles/${id}?last_user_prompt=bread`);
    assert.deepEqual([get.status, get.body.status], [404, "article_not_found"]);
    const search = await restJson(again, "/api/v1/articles/search?q=sourdough+microbes");
    assert.ok(!search.body.results.some((r: Body) => r.id === id));
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("unpublish and publish answer 404 for another publisher's or an unknown article", async () => {
  await using folio = await testFolio();
  const id = await idOf(folio, SOURDOUGH);
  const other = await signUp(folio);
  for (const published of [false, true]) {
    const foreign = await setPublished(folio, id, published, bearer(other.apiKey));
    assert.equal(foreign.status, 404);
    assert.equal((await json<Body>(foreign)).error.code, "not_found");
    const unknown = await setPublished(folio, "art_nope", published);
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  }
  const get = await restJson(folio, `/api/v1/articles/${id}?last_user_prompt=bread`);
  assert.equal(get.status, 200);
});

Deno.test("a cookie session unpublishes only with the CSRF token", async () => {
  await using folio = await testFolio();
  const { email, publisherId } = await signUp(folio);
  const { id } = await upsertArticle(folio.store.db, publisherId, {
    url: "https://news.example.test/a",
    title: "A",
    body: "Body text",
  }, { now: folio.clock.now() });
  const { cookie, csrfToken } = await logIn(folio, email);
  const refused = await setPublished(folio, id, false, { cookie });
  assert.equal(refused.status, 403);
  assert.equal((await json<Body>(refused)).error.code, "csrf_failed");
  const list = await json<Body>(
    await folio.request("/api/publisher/articles", { headers: { cookie } }),
  );
  assert.equal(list.articles[0].published, true);
  const ok = await setPublished(folio, id, false, { cookie, "x-csrf-token": csrfToken });
  assert.equal(ok.status, 200);
  assert.equal((await json<Body>(ok)).article.published, false);
  const viaJson = await sendJson(
    folio,
    "POST",
    `/api/publisher/articles/${id}/publish`,
    undefined,
    {
      cookie,
      "x-csrf-token": csrfToken,
    },
  );
  assert.equal((await json<Body>(viaJson)).article.published, true);
});

Deno.test("rotating the publisher key returns a new key once; the old one stops working at once", async () => {
  await using folio = await testFolio();
  const { apiKey, publisherId, email } = await signUp(folio);
  const res = await folio.request("/api/publisher/key/rotate", {
    method: "POST",
    headers: bearer(apiKey),
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const rotated = await json<Body>(res);
  assert.match(rotated.apiKey, /^pk_[0-9A-Za-z]{38}$/);
  assert.notEqual(rotated.apiKey, apiKey);
  const old = await folio.request("/api/publisher/settings", { headers: bearer(apiKey) });
  assert.equal(old.status, 401);
  await old.body?.cancel();
  const fresh = await folio.request("/api/publisher/settings", { headers: bearer(rotated.apiKey) });
  assert.equal((await json<Body>(fresh)).publisherId, publisherId);
  // Only hashes are stored; the demo's key is untouched.
  const keys = await folio.store.db.execute({
    sql: "SELECT key_hash, revoked_at FROM publisher_keys WHERE publisher_id = ?",
    args: [publisherId],
  });
  assert.equal(keys.rows.length, 2);
  assert.equal(keys.rows.filter((r) => r.revoked_at === null).length, 1);
  assert.ok(!JSON.stringify(keys.rows).includes(rotated.apiKey.slice(3)));
  const demo = await folio.request("/api/publisher/settings", { headers: demoKey(folio) });
  assert.equal(demo.status, 200);
  await demo.body?.cancel();

  // With the session cookie, only with the CSRF token; the session itself stays signed in.
  const { cookie, csrfToken } = await logIn(folio, email);
  const refused = await folio.request("/api/publisher/key/rotate", {
    method: "POST",
    headers: { cookie },
  });
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const still = await folio.request("/api/publisher/settings", { headers: bearer(rotated.apiKey) });
  assert.equal(still.status, 200, "a refused rotation changes nothing");
  await still.body?.cancel();
  const viaCookie = await folio.request("/api/publisher/key/rotate", {
    method: "POST",
    headers: { cookie, "x-csrf-token": csrfToken },
  });
  const third = await json<Body>(viaCookie);
  assert.equal(viaCookie.status, 200);
  const second = await folio.request("/api/publisher/settings", {
    headers: bearer(rotated.apiKey),
  });
  assert.equal(second.status, 401);
  await second.body?.cancel();
  const session = await folio.request("/api/publisher/settings", { headers: { cookie } });
  assert.equal(session.status, 200);
  await session.body?.cancel();
  const latest = await folio.request("/api/publisher/settings", { headers: bearer(third.apiKey) });
  assert.equal(latest.status, 200);
  await latest.body?.cancel();
  // Without any credential: 401.
  const anonymous = await folio.request("/api/publisher/key/rotate", { method: "POST" });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});
