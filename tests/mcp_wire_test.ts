/**
 * The MCP endpoint's wire, pinned byte for byte: HTTP-level refusals (publisher, Host, Origin,
 * method, credentials, session, body), JSON-RPC argument errors, and every get_article outcome.
 */
import { setArticlePolicy } from "../store/articles.ts";
import { getPublisher } from "../store/publishers.ts";
import {
  denyTerritory,
  initializeRequest,
  outcomeFixture,
  patchDemo,
  spendToCap,
} from "./fixtures/demo.ts";
import { testFolio } from "./helpers.ts";
import { ACCEPT, initialize, mintToken, post } from "./mcp_helpers.ts";
import { type Wire, wire } from "./wire.ts";
import assert from "node:assert/strict";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import * as ours from "../server/domain/mcp_versions.ts";

const HEADERS = ["www-authenticate", "allow", "mcp-session-id"];

function call(name: string, args: Record<string, unknown>, id = 7) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

Deno.test("MCP wire: refusals before JSON-RPC", async (t) => {
  await using folio = await testFolio();
  const table: [string, Wire][] = [];
  const add = async (label: string, res: Promise<Response>) => {
    table.push([label, await wire(await res, HEADERS)]);
  };
  const init = initializeRequest("w");
  const raw = (path: string, init: RequestInit & { host?: string }) => folio.request(path, init);
  await add("initialize", post(folio, init));
  await add("unknown publisher", post(folio, init, { publisherId: "pub_nope" }));
  await add(
    "foreign Host",
    raw("/api/mcp/pub_demo", {
      method: "POST",
      host: "evil.example",
      headers: { "content-type": "application/json", accept: ACCEPT },
      body: JSON.stringify(init),
    }),
  );
  await add("foreign Origin", post(folio, init, { headers: { origin: "https://evil.example" } }));
  await add("null Origin", post(folio, init, { headers: { origin: "null" } }));
  await add("GET", raw("/api/mcp/pub_demo", { method: "GET", headers: { accept: ACCEPT } }));
  await add("PUT", raw("/api/mcp/pub_demo", { method: "PUT", body: "{}" }));
  await add(
    "token in URL",
    raw("/api/mcp/pub_demo?access_token=x", { method: "POST", body: "{}" }),
  );
  await add("bad token", post(folio, init, { headers: { authorization: "Bearer fat_nope" } }));
  await add("basic scheme", post(folio, init, { headers: { authorization: "Basic abc" } }));
  await add("bad buyer key", post(folio, init, { headers: { authorization: "Bearer mk_nope" } }));
  const { token } = await mintToken(folio, { scope: "other" });
  await add("scope missing", post(folio, init, { headers: { authorization: `Bearer ${token}` } }));
  await add("no session id", post(folio, { jsonrpc: "2.0", id: 2, method: "tools/list" }));
  await add(
    "unknown session",
    post(folio, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { sessionId: "mcs_nope" }),
  );
  await add("not JSON", post(folio, "{nope"));
  await add("empty batch", post(folio, "[]"));
  await add("declared too large", post(folio, "x".repeat(1024 * 1024 + 1)));
  const { sessionId } = await initialize(folio);
  await add(
    "batch on 2025-06-18+",
    post(folio, [{ jsonrpc: "2.0", id: 3, method: "tools/list" }], { sessionId }),
  );
  await add("DELETE without session", raw("/api/mcp/pub_demo", { method: "DELETE" }));
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  await add("auth required", post(folio, init));
  await add(
    "auth required, session without token",
    post(folio, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { sessionId }),
  );
  await t.assertSnapshot(table);
});

Deno.test("MCP wire: argument errors and every get_article outcome", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const db = folio.deps.store.db;
  const { observe: [observe, observe2, observe3], paywalled, apiKey, buyerId } =
    await outcomeFixture(folio);
  await patchDemo(folio, (p) => ({ ...p, sponsorTools: ["cite_article", "publisher_info"] }));
  const anon = await initialize(folio);
  const buyer = { authorization: `Bearer ${apiKey}` };
  const keyed = await initialize(folio, { headers: buyer });
  const table: [string, Wire][] = [];
  const send = async (
    label: string,
    body: unknown,
    options: { keyed?: boolean; headers?: Record<string, string>; sessionId?: string } = {},
  ) => {
    const res = await post(folio, body, {
      sessionId: options.sessionId ?? (options.keyed ? keyed.sessionId : anon.sessionId),
      headers: { ...(options.keyed ? buyer : {}), ...options.headers },
    });
    table.push([label, await wire(res)]);
  };
  await send("tools/list", { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  await send("templates", { jsonrpc: "2.0", id: 3, method: "resources/templates/list" });
  // Argument errors follow the session's version: tool results with isError from 2025-11-25
  // (SEP-1303), JSON-RPC -32602 before it; an unknown tool is -32602 on both.
  const old = await initialize(folio, { protocolVersion: "2025-06-18" });
  const argumentCases: [string, string, Record<string, unknown>][] = [
    ["unknown tool", "nope", {}],
    ["query empty", "search_articles", { query: "" }],
    ["query too long", "search_articles", { query: "q".repeat(201) }],
    ["query control", "search_articles", { query: "a\u0001b" }],
    ["query missing", "search_articles", {}],
    ["limit zero", "search_articles", { query: "x", limit: 0 }],
    ["limit 51", "search_articles", { query: "x", limit: 51 }],
    ["limit text", "search_articles", { query: "x", limit: "5" }],
    ["limit fraction", "search_articles", { query: "x", limit: 2.5 }],
    ["unknown field", "search_articles", { query: "x", extra: 1 }],
    ["url_or_id too long", "get_article", { url_or_id: "x".repeat(2049) }],
    ["url_or_id empty", "get_article", { url_or_id: " " }],
    ["prompt too long", "get_article", { url_or_id: observe, last_user_prompt: "p".repeat(8001) }],
    ["tag empty", "list_by_topic", { tag: "" }],
    ["since not a date", "list_recent", { since: "yesterday" }],
  ];
  for (const [label, name, args] of argumentCases) await send(label, call(name, args));
  for (const [label, name, args] of argumentCases) {
    await send(`${label} (2025-06-18)`, call(name, args), { sessionId: old.sessionId });
  }
  await send("article unknown", call("get_article", { url_or_id: "nope" }));
  await send("full", call("get_article", { url_or_id: observe, last_user_prompt: "hi" }));
  await send("charged", call("get_article", { url_or_id: paywalled[0] }), { keyed: true });
  for (const id of paywalled.slice(0, 3)) {
    await send("metered free read", call("get_article", { url_or_id: id }));
  }
  await send("paywall upsell", call("get_article", { url_or_id: paywalled[3] }));
  await setArticlePolicy(db, "pub_demo", observe2, { policy: "BLOCKED", now: folio.clock.now() });
  await send("blocked", call("get_article", { url_or_id: observe2 }));
  await send("cite blocked", call("cite_article", { url_or_id: observe2 }));
  await denyTerritory(folio, "FR");
  await send("territory blocked", call("get_article", { url_or_id: observe3 }), {
    headers: { "cf-ipcountry": "FR" },
  });
  await send("territory blocked listing", call("list_recent", { limit: 3 }), {
    headers: { "cf-ipcountry": "FR" },
  });
  await spendToCap(folio, buyerId);
  await send("capped", call("get_article", { url_or_id: paywalled[2] }), { keyed: true });
  const p = (await getPublisher(db, "pub_demo"))!;
  await patchDemo(folio, (x) => ({ ...x, rights: { ...p.rights, display: false } }));
  await send("summary only", call("get_article", { url_or_id: observe3 }));
  await patchDemo(folio, (x) => ({
    ...x,
    rights: { ...p.rights, display: false, summarization: false },
  }));
  await send("denied", call("get_article", { url_or_id: observe3 }));
  await send("listing", call("list_by_topic", { tag: "energy", limit: 2 }));
  await send("publisher info", call("publisher_info", {}));
  await send("cite", call("cite_article", { url_or_id: observe, style: "mla" }));
  await send("resources page", { jsonrpc: "2.0", id: 9, method: "resources/list", params: {} });
  await send(
    "request license",
    call("request_license", { use_case: "fine_tuning", message: "We train models" }),
  );
  await t.assertSnapshot(table);
});

Deno.test("the protocol versions the start knows without the SDK are the SDK's", () => {
  assert.equal(ours.LATEST_PROTOCOL_VERSION, sdk.LATEST_PROTOCOL_VERSION);
  assert.deepEqual(ours.SUPPORTED_PROTOCOL_VERSIONS, sdk.SUPPORTED_PROTOCOL_VERSIONS);
});
