/** The call log and reader intents in the management API: calls, not traces, and who asked. */
import assert from "node:assert/strict";
import { rpc } from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { insertCalls } from "../store/call_log.ts";
import { setClientEmail } from "../store/oauth.ts";
import { demoIds } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, signUp } from "./manage_helpers.ts";
import { mcpTool, mintToken } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const HOST = "demo.localhost";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function rest(folio: TestFolio, path: string, headers: Record<string, string> = {}) {
  const res = await folio.request(path, { host: HOST, headers });
  await res.body?.cancel();
  return res.status;
}

/** One call of each kind of caller: anonymous REST and A2A, a buyer key, two OAuth installs. */
async function callers(folio: TestFolio) {
  const [id] = await demoIds(folio, "OBSERVE");
  const { apiKey, buyerId } = await createBuyer(folio.store.db, {
    name: "Acme AI",
    email: "ops@acme.test",
  }, { now: folio.clock.now() });
  const bound = await mintToken(folio, { buyerId });
  await setClientEmail(folio.store.db, bound.clientId, "reader@example.test");
  const loose = await mintToken(folio);
  assert.equal(await rest(folio, "/api/v1/articles/search?q=solar"), 200);
  assert.equal(
    await rest(folio, `/api/v1/articles/${id}?last_user_prompt=anonymous+asks`),
    200,
  );
  assert.equal(
    await rest(folio, `/api/v1/articles/${id}?last_user_prompt=buyer+asks`, {
      authorization: `Bearer ${apiKey}`,
    }),
    200,
  );
  await mcpTool(folio, "get_article", { url_or_id: id, last_user_prompt: "oauth asks" }, {
    authorization: `Bearer ${bound.token}`,
  });
  await mcpTool(folio, "search_articles", { query: "solar" }, {
    authorization: `Bearer ${loose.token}`,
  });
  await mcpTool(folio, "list_recent", { limit: 2 });
  await rpc(folio, "SendMessage", {
    message: {
      messageId: crypto.randomUUID(),
      role: "ROLE_USER",
      parts: [{ data: { skill: "search_articles", query: "dams" } }],
    },
  });
  // A refused protocol request: no tool row, logged as an error.
  assert.equal(
    await rest(folio, "/api/v1/articles/search?q=x", { authorization: "Bearer mk_bad" }),
    401,
  );
  await folio.deps.callLog.flush();
  return { buyerId, bound: bound.clientId, loose: loose.clientId, id };
}

Deno.test("calls leave out protocol traces by default and say who asked, never an anonymous address", async () => {
  await using folio = await testFolio();
  const { buyerId, bound, loose, id } = await callers(folio);
  const res = await folio.request("/api/publisher/calls", { headers: demoKey(folio) });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(!text.includes("127.0.0.1"), "no caller address");
  assert.ok(!text.includes("sess:") && !text.includes("ip:"), "no anonymous identity");
  const { calls } = JSON.parse(text);
  assert.ok(calls.every((c: Body) => c.status !== "trace"));
  assert.ok(!calls.some((c: Body) => c.tool.startsWith("_method:") && c.status !== "error"));
  const rows = calls.map((c: Body) => [c.surface, c.tool, c.status, c.caller]).reverse();
  assert.deepEqual(rows, [
    ["rest", "_rest:search_articles", "ok", { kind: "anonymous" }],
    ["rest", "_rest:get_article", "ok", { kind: "anonymous" }],
    ["rest", "_rest:get_article", "ok", { kind: "buyer", buyerId, name: "Acme AI" }],
    ["mcp", "get_article", "ok", {
      kind: "oauth",
      clientId: bound,
      clientName: "Test client",
      email: "reader@example.test",
      buyerId,
    }],
    ["mcp", "search_articles", "ok", {
      kind: "oauth",
      clientId: loose,
      clientName: "Test client",
      email: null,
    }],
    ["mcp", "list_recent", "ok", { kind: "anonymous" }],
    ["a2a", "search_articles", "ok", { kind: "anonymous" }],
    ["rest", "_rest:search_articles", "error", { kind: "anonymous" }],
  ]);
  // Which page each call read (issue 34): the reads name their article, searches none.
  const pages = calls.map((c: Body) => c.article?.id ?? null).reverse();
  assert.deepEqual(pages, [null, id, id, id, null, null, null, null]);
  const read = calls.find((c: Body) => c.article);
  assert.match(read.article.title, /\S/);
  assert.match(read.article.url, /^https:\/\/demo\.localhost\//);
  const first = calls.at(-1);
  assert.deepEqual(Object.keys(first).sort(), [
    "agent",
    "article",
    "at",
    "caller",
    "httpStatus",
    "id",
    "latencyMs",
    "outcome",
    "requestId",
    "status",
    "surface",
    "tool",
    "userAgent",
  ]);
  assert.deepEqual(first.agent, { key: "anonymous", kind: "anonymous", name: "Anonymous" });
  assert.equal(calls[0].outcome, "refused", "the bad key's 401");
  assert.equal(first.httpStatus, 200);
  assert.match(first.requestId, /\S+/);

  // Another publisher sees none of it.
  const other = await signUp(folio);
  const theirs = await json<Body>(
    await folio.request("/api/publisher/calls", { headers: bearer(other.apiKey) }),
  );
  assert.deepEqual(theirs.calls, []);
});

Deno.test("a page of 100 calls is 100 calls however many trace rows came between them", async () => {
  await using folio = await testFolio();
  const base = folio.clock.now().getTime();
  const row = (i: number, tool: string, status: "ok" | "trace" | "error") => ({
    publisherId: "pub_demo",
    at: new Date(base + i),
    surface: "mcp" as const,
    tool,
    userAgent: "ua",
    latencyMs: 1,
    status,
    httpStatus: 200,
    identity: `sess:${"0".repeat(32)}`,
    requestId: `req_${i}`,
  });
  const entries = [];
  for (let i = 0; i < 150; i++) {
    entries.push(row(3 * i, "_method:tools/call", "trace"));
    entries.push(row(3 * i + 1, "search_articles", i % 10 === 0 ? "error" : "ok"));
    entries.push(row(3 * i + 2, "_method:tools/list", "trace"));
  }
  await insertCalls(folio.store.db, entries);
  const { calls } = await json<Body>(
    await folio.request("/api/publisher/calls", { headers: demoKey(folio) }),
  );
  assert.equal(calls.length, 100);
  assert.ok(calls.every((c: Body) => c.tool === "search_articles"));
  assert.equal(calls[0].requestId, `req_${3 * 149 + 1}`, "newest first");
  assert.equal(calls[99].requestId, `req_${3 * 50 + 1}`);
});

Deno.test("reader intents say who asked, never an anonymous address", async () => {
  await using folio = await testFolio();
  const { buyerId, bound } = await callers(folio);
  const res = await folio.request("/api/publisher/intents", { headers: demoKey(folio) });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(!text.includes("127.0.0.1") && !text.includes("ip:"));
  const { intents } = JSON.parse(text);
  assert.deepEqual(intents.map((i: Body) => [i.prompt, i.surface, i.caller]), [
    ["oauth asks", "mcp", {
      kind: "oauth",
      clientId: bound,
      clientName: "Test client",
      email: "reader@example.test",
      buyerId,
    }],
    ["buyer asks", "rest", { kind: "buyer", buyerId, name: "Acme AI" }],
    ["anonymous asks", "rest", { kind: "anonymous" }],
  ]);
  assert.deepEqual(Object.keys(intents[0]).sort(), [
    "articleId",
    "at",
    "caller",
    "prompt",
    "surface",
  ]);
  const other = await signUp(folio);
  const theirs = await json<Body>(
    await folio.request("/api/publisher/intents", { headers: bearer(other.apiKey) }),
  );
  assert.deepEqual(theirs.intents, []);
});
