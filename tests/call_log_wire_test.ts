/**
 * What the call log records for each surface's answers and refusals (docs/SPEC.md "Events"),
 * pinned: which requests are logged, under which tool, status, HTTP status and identity.
 */
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { initialize, post } from "./mcp_helpers.ts";
import { mask } from "./wire.ts";

async function toggle(folio: TestFolio, toggles: Record<string, boolean>) {
  const p = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
  await updatePublisher(folio.deps.store.db, { ...p, toggles: { ...p.toggles, ...toggles } }, {
    now: folio.clock.now(),
  });
}

async function rows(folio: TestFolio) {
  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute(
    "SELECT publisher_id, surface, tool, status, http_status, identity FROM call_log ORDER BY id",
  );
  return rs.rows.map((r) =>
    mask(
      [r.publisher_id, r.surface, r.tool, r.status, r.http_status, r.identity].map(String).join(
        " ",
      ),
    )
  );
}

async function drain(res: Response | Promise<Response>) {
  await (await res).body?.cancel();
}

Deno.test("call log: what each surface records", async (t) => {
  await using folio = await testFolio();
  const { apiKey } = await createBuyer(folio.deps.store.db, { name: "L", email: "l@x.test" }, {
    now: folio.clock.now(),
  });
  const [id] = (await folio.deps.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'OBSERVE' ORDER BY id",
  )).rows.map((r) => String(r.id));
  const demo = { host: "demo.localhost" };
  // REST.
  await drain(folio.request("/api/v1/articles/search?q=x", { host: "nobody.localhost" }));
  await drain(folio.request(`/api/v1/articles/search?q=x&api_key=${apiKey}`, demo));
  await drain(folio.request("/api/v1/articles/search?q=x", {
    ...demo,
    headers: { authorization: "Bearer mk_nope" },
  }));
  await drain(folio.request("/api/v1/articles/search?q=", demo));
  await drain(folio.request(`/api/v1/articles/${id}?last_user_prompt=hi`, demo));
  await drain(folio.request(`/api/v1/articles/${id}`, demo));
  await drain(folio.request("/api/v1/articles/nope?last_user_prompt=hi", demo));
  await drain(folio.request("/api/v1/passages/search?q=rivers", {
    ...demo,
    headers: { authorization: `Bearer ${apiKey}` },
  }));
  await drain(folio.request("/api/v1/publishers/pub_nope/articles/search?q=x"));
  await drain(folio.request("/api/v1/nope", demo));
  // MCP.
  await drain(
    post(folio, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { publisherId: "pub_nope" }),
  );
  await drain(folio.request("/api/mcp/pub_demo", { method: "GET" }));
  await drain(post(folio, { jsonrpc: "2.0", id: 1, method: "tools/list" }, {
    headers: { origin: "https://evil.example" },
  }));
  await drain(post(folio, { jsonrpc: "2.0", id: 1, method: "tools/list" }, {
    headers: { authorization: "Bearer fat_nope" },
  }));
  const { sessionId } = await initialize(folio);
  await drain(post(folio, { jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId }));
  await drain(post(folio, {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "get_article",
      arguments: { url_or_id: id },
    },
  }, { sessionId }));
  await drain(post(folio, { jsonrpc: "2.0", id: 3, method: "tools/list" }));
  await drain(post(folio, "x".repeat(1024 * 1024 + 1)));
  await drain(post(folio, { jsonrpc: "2.0", id: 4, method: "tools/list" }, {
    sessionId,
    headers: { authorization: `Bearer ${apiKey}` },
  }));
  // A2A.
  const a2a = (body: string, init: { host?: string; headers?: Record<string, string> } = {}) =>
    folio.request("/a2a", {
      method: "POST",
      host: init.host ?? "demo.localhost",
      headers: { "content-type": "application/json", ...init.headers },
      body,
    });
  const send = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "rivers" }] } },
  });
  await drain(a2a(send, { host: "nobody.localhost" }));
  await drain(a2a(send, { headers: { authorization: "Bearer mk_nope" } }));
  await drain(a2a(send));
  await drain(a2a("{"));
  await drain(a2a(JSON.stringify({ jsonrpc: "2.0", method: "SendMessage" })));
  await drain(a2a(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ListTasks", params: {} })));
  await drain(a2a("x".repeat(1024 * 1024 + 1)));
  await toggle(folio, { requireAuth: true });
  await drain(a2a(send));
  await toggle(folio, { a2a: false, requireAuth: false });
  await drain(a2a(send));
  await toggle(folio, { publicRest: false });
  await drain(folio.request("/api/v1/articles/search?q=x", demo));
  await t.assertSnapshot(await rows(folio));
});
