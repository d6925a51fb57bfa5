/** Authentication at the MCP endpoint (docs/SPEC.md "Authentication"; docs/TEST-PLAN.md 2 cases 1-7, 13, 14, 22). */
import assert from "node:assert/strict";
import { createBuyer, rotateBuyerKey } from "../server/surfaces/marketplace/buyers.ts";
import { getPublisher, insertPublisher, updatePublisher } from "../store/publishers.ts";
import { startTestFolio, type TestFolio } from "./helpers.ts";
import { connect, initialize, mcpUrl, mintToken, post } from "./mcp_helpers.ts";

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

async function requireAuth(folio: TestFolio, on = true) {
  const p = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
  await updatePublisher(folio.deps.store.db, { ...p, toggles: { ...p.toggles, requireAuth: on } }, {
    now: folio.clock.now(),
  });
}

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

Deno.test("requireAuth: initialize without a token is 401 with resource_metadata and no tool list", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  const { res } = await initialize(folio);
  assert.equal(res.status, 401);
  const challenge = res.headers.get("www-authenticate") ?? "";
  const metadata = `${folio.config.baseUrl}/.well-known/oauth-protected-resource/api/mcp/pub_demo`;
  assert.equal(challenge, `Bearer resource_metadata="${metadata}"`);
  assert.equal(res.headers.get("mcp-session-id"), null);
  const card = await folio.request("/api/publishers/pub_demo/card");
  assert.equal((await card.json()).auth.resourceMetadata, metadata);
});

Deno.test("requireAuth: the 401 body names no tool", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  const res = await post(folio, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    },
  });
  const text = await res.text();
  assert.equal(res.status, 401);
  assert.doesNotMatch(text, /search_articles|get_article|tools/);
});

Deno.test("requireAuth: a valid token works and meters as oauth:<clientId>", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  const { token, clientId } = await mintToken(folio);
  await using client = await connect(folio, { headers: bearer(token) });
  const { tools } = await client.listTools();
  assert.equal(tools.length, 7);
  const rs = await folio.deps.store.db.execute("SELECT identity, client_id FROM mcp_sessions");
  assert.equal(rs.rows[0].identity, `oauth:${clientId}`);
  assert.equal(rs.rows[0].client_id, clientId);
});

Deno.test("bad credentials get 401 invalid_token: garbage, empty, Basic, expired, other audience", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  await insertPublisher(folio.deps.store.db, { id: "pub_b", slug: "bee", name: "Bee" }, {
    now: folio.clock.now(),
  });
  const forB = await mintToken(folio, { publisherId: "pub_b" });
  const shortLived = await mintToken(folio);
  const good = await mintToken(folio);
  folio.clock.advance(3601_000);
  for (
    const authorization of [
      "Bearer garbage",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      `Bearer ${forB.token}`,
      `Bearer ${shortLived.token}`,
      `Bearer ${good.token.slice(0, -1)}x`,
      "Bearer mk_notakey",
    ]
  ) {
    const { res } = await initialize(folio, { headers: { authorization } });
    assert.equal(res.status, 401, authorization);
    const challenge = res.headers.get("www-authenticate") ?? "";
    assert.match(challenge, /error="invalid_token"/, authorization);
    assert.match(challenge, /resource_metadata="http/);
  }
});

Deno.test("a bad token is refused even where auth is optional: never downgraded to anonymous", async () => {
  await using folio = await startTestFolio();
  const { res } = await initialize(folio, { headers: { authorization: "Bearer fat_nope" } });
  assert.equal(res.status, 401);
});

Deno.test("a token in the query string is refused", async () => {
  await using folio = await startTestFolio();
  const { token } = await mintToken(folio);
  for (const param of ["access_token", "api_key"]) {
    const res = await fetch(`${mcpUrl(folio)}?${param}=${token}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(LIST),
    });
    assert.equal(res.status, 401);
    assert.match(res.headers.get("www-authenticate") ?? "", /invalid_request/);
    await res.body?.cancel();
  }
});

Deno.test("a token for one publisher is refused by every other publisher (audience matrix)", async () => {
  await using folio = await startTestFolio();
  const ids = ["pub_demo", "pub_b", "pub_c"];
  for (const id of ids.slice(1)) {
    await insertPublisher(folio.deps.store.db, { id, slug: id.slice(4) + "x", name: id }, {
      now: folio.clock.now(),
    });
  }
  let accepted = 0;
  for (const owner of ids) {
    const { token } = await mintToken(folio, { publisherId: owner });
    for (const at of ids) {
      const { res } = await initialize(folio, { publisherId: at, headers: bearer(token) });
      if (at === owner) assert.equal(res.status, 200);
      else {
        assert.equal(res.status, 401, `${owner} token at ${at}`);
        if (res.ok) accepted++;
      }
    }
  }
  assert.equal(accepted, 0);
});

Deno.test("a session is bound to its client: another client's token gets 404, none gets 401", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  const u1 = await mintToken(folio);
  const u2 = await mintToken(folio);
  const { sessionId } = await initialize(folio, { headers: bearer(u1.token) });
  const other = await post(folio, LIST, { sessionId, headers: bearer(u2.token) });
  assert.equal(other.status, 404);
  await other.body?.cancel();
  const none = await post(folio, LIST, { sessionId });
  assert.equal(none.status, 401);
  await none.body?.cancel();
  const own = await post(folio, LIST, { sessionId, headers: bearer(u1.token) });
  assert.equal(own.status, 200);
  await own.body?.cancel();
  // Where auth is optional, a session made with a token still needs it: sessions never authenticate.
  await requireAuth(folio, false);
  const optional = await post(folio, LIST, { sessionId });
  assert.equal(optional.status, 401);
  await optional.body?.cancel();
  const anon = await initialize(folio);
  const hijack = await post(folio, LIST, { sessionId: anon.sessionId, headers: bearer(u1.token) });
  assert.equal(hijack.status, 404);
  await hijack.body?.cancel();
});

Deno.test("a token without the mcp scope gets 403 insufficient_scope", async () => {
  await using folio = await startTestFolio();
  const { token } = await mintToken(folio, { scope: "other" });
  const { res } = await initialize(folio, { headers: bearer(token) });
  assert.equal(res.status, 403);
  const challenge = res.headers.get("www-authenticate") ?? "";
  assert.match(challenge, /error="insufficient_scope"/);
  assert.match(challenge, /scope="mcp"/);
  assert.match(challenge, /resource_metadata=/);
});

Deno.test("a token whose client a buyer registered is charged, not metered; a rotated key is refused", async () => {
  await using folio = await startTestFolio();
  await requireAuth(folio);
  const db = folio.deps.store.db;
  const { buyerId, apiKey } = await createBuyer(db, { name: "B", email: "b@b.example" }, {
    now: folio.clock.now(),
  });
  const { token } = await mintToken(folio, { buyerId });
  const paid = await db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL' LIMIT 1",
  );
  {
    await using client = await connect(folio, { headers: bearer(token) });
    const r = await client.callTool({
      name: "get_article",
      arguments: { url_or_id: String(paid.rows[0].id) },
    }) as { structuredContent: { chargedUsdCents: number } };
    assert.ok(r.structuredContent.chargedUsdCents > 0);
  }
  const charges = await db.execute({
    sql: "SELECT identity FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.match(String(charges.rows[0].identity), /^oauth:/);
  // A buyer key is accepted as a Bearer credential, and stops working the moment it is rotated.
  const ok = await initialize(folio, { headers: bearer(apiKey) });
  assert.equal(ok.res.status, 200);
  await rotateBuyerKey(db, buyerId, { now: folio.clock.now() });
  const after = await post(folio, LIST, { sessionId: ok.sessionId, headers: bearer(apiKey) });
  assert.equal(after.status, 401);
  await after.body?.cancel();
});

Deno.test("logs carry no tokens, keys or session ids", async () => {
  await using folio = await startTestFolio();
  const { token } = await mintToken(folio);
  const { apiKey } = await createBuyer(folio.deps.store.db, { name: "B", email: "b@b.example" }, {
    now: folio.clock.now(),
  });
  const secrets: string[] = [token, apiKey];
  for (const auth of [{}, bearer(token), bearer(apiKey), bearer("fat_garbage")]) {
    const { sessionId } = await initialize(folio, { headers: auth });
    if (sessionId) secrets.push(sessionId);
    const res = await post(folio, LIST, { sessionId, headers: auth });
    await res.body?.cancel();
  }
  await folio.deps.callLog.flush();
  const rows = await folio.deps.store.db.execute("SELECT * FROM call_log");
  const meters = await folio.deps.store.db.execute("SELECT * FROM mcp_sessions");
  const dump = JSON.stringify([rows.rows, meters.rows, folio.logLines]);
  assert.ok(rows.rows.length >= 8);
  for (const s of secrets) assert.ok(!dump.includes(s), "a secret reached the logs or store");
  assert.doesNotMatch(dump, /mcs_|fat_|mk_/);
});
