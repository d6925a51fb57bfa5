/** The MCP endpoint's protocol: sessions, versions, transport rules, Origin/Host (docs/TEST-PLAN.md 2). */
import assert from "node:assert/strict";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { newSessionId } from "../server/surfaces/mcp/session.ts";
import { startTestFolio } from "./helpers.ts";
import { ACCEPT, callLogRows, connect, initialize, mcpUrl, post } from "./mcp_helpers.ts";

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

Deno.test("the SDK client initializes, lists tools and discovers the publisher card", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  assert.equal(client.getServerVersion()?.name, "folio-demo");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t: { name: string }) => t.name), [
    "search_articles",
    "get_article",
    "list_recent",
    "list_by_topic",
    "retrieve_passages",
    "request_license",
    "license_request_status",
  ]);
  const search = tools.find((t: { name: string }) => t.name === "search_articles")!;
  const props = search.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.equal(props.query.maxLength, 200);
  assert.equal(props.limit.maximum, 50);
  assert.equal(props.limit.default, 10);
  assert.deepEqual(search.inputSchema.required, ["query"]);
  // server/discover is ours, not an SDK built-in: it answers the publisher card.
  const card = await client.request(
    { method: "server/discover", params: {} },
    (await import("zod")).z.looseObject({}),
  ) as Record<string, unknown>;
  assert.equal(card.id, "pub_demo");
  assert.equal(
    (card.mcp as { endpoint: string }).endpoint,
    `${folio.config.baseUrl}/api/mcp/pub_demo`,
  );
});

Deno.test("every protocol call is logged as _method:<name> trace and tool calls under their name", async () => {
  await using folio = await startTestFolio();
  {
    await using client = await connect(folio);
    await client.listTools();
    await client.callTool({ name: "list_recent", arguments: { limit: 2 } });
    await client.callTool({ name: "get_article", arguments: { url_or_id: "nope" } });
  }
  const rows = await callLogRows(folio);
  const tools = rows.map((r) => `${r.tool}:${r.status}`);
  for (
    const want of [
      "_method:initialize:trace",
      "_method:notifications/initialized:trace",
      "_method:tools/list:trace",
      "_method:tools/call:trace",
      "list_recent:ok",
      "get_article:error",
    ]
  ) assert.ok(tools.includes(want), `${want} in ${tools.join(", ")}`);
  // Identities are digests, never the session id itself (docs/TEST-PLAN.md 2.22).
  for (const r of rows) assert.match(r.identity ?? "sess:", /^sess:[0-9a-f]{32}$/);
});

Deno.test("initialize negotiates the protocol version and issues a strong session id", async () => {
  await using folio = await startTestFolio();
  const older = await initialize(folio, { protocolVersion: "2025-03-26" });
  assert.equal(older.protocolVersion, "2025-03-26");
  const unknown = await initialize(folio, { protocolVersion: "1999-01-01" });
  assert.equal(unknown.protocolVersion, "2025-11-25");
  assert.match(older.sessionId, /^[\x21-\x7E]{32,}$/);
  assert.notEqual(older.sessionId, unknown.sessionId);
});

Deno.test("newSessionId() gives 10,000 distinct ids of at least 128 bits", () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => newSessionId()));
  assert.equal(ids.size, 10_000);
  for (const id of [...ids].slice(0, 50)) assert.match(id, /^mcs_[0-9A-Za-z]{32}$/); // 190 bits
});

Deno.test("requests after initialize need the session: 400 without, 404 unknown, ended or idle", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio);
  const missing = await post(folio, LIST);
  assert.equal(missing.status, 400);
  assert.equal((await missing.json()).error.code, -32000);
  const unknown = await post(folio, LIST, { sessionId: newSessionId() });
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  const ok = await post(folio, LIST, { sessionId });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).result.tools.length, 7);

  const del = await fetch(mcpUrl(folio), {
    method: "DELETE",
    headers: { "mcp-session-id": sessionId },
  });
  assert.equal(del.status, 200);
  await del.body?.cancel();
  const reused = await post(folio, LIST, { sessionId });
  assert.equal(reused.status, 404);
  await reused.body?.cancel();
  const delAgain = await fetch(mcpUrl(folio), {
    method: "DELETE",
    headers: { "mcp-session-id": sessionId },
  });
  assert.equal(delAgain.status, 404);
  await delAgain.body?.cancel();

  const idle = await initialize(folio);
  folio.clock.advance(24 * 3600_000 + 1000);
  const expired = await post(folio, LIST, { sessionId: idle.sessionId });
  assert.equal(expired.status, 404);
  await expired.body?.cancel();
});

Deno.test("a session on one node is served by another node on the same store", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-mcp-" });
  try {
    await using a = await startTestFolio({ dataDir });
    await using b = await startTestFolio({ dataDir, clock: a.clock });
    const { sessionId } = await initialize(a);
    const res = await post(b, LIST, { sessionId });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).result.tools.length, 7);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("notifications answer 202 with an empty body", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio);
  const res = await post(folio, { jsonrpc: "2.0", method: "notifications/initialized" }, {
    sessionId,
  });
  assert.equal(res.status, 202);
  assert.equal(await res.text(), "");
});

Deno.test("malformed input gets JSON-RPC errors: parse, batch, size, version, Accept, GET", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio);
  const parse = await post(folio, "{not json", { sessionId });
  assert.equal(parse.status, 400);
  assert.equal((await parse.json()).error.code, -32700);
  const batch = await post(folio, [LIST, { ...LIST, id: 3 }], { sessionId });
  assert.equal(batch.status, 400);
  assert.equal((await batch.json()).error.code, -32600);
  const big = await post(folio, `{"x":"${"a".repeat(1024 * 1024)}"}`, { sessionId });
  assert.equal(big.status, 413);
  await big.body?.cancel();
  const version = await post(folio, LIST, {
    sessionId,
    headers: { "mcp-protocol-version": "1999-01-01" },
  });
  assert.equal(version.status, 400);
  await version.body?.cancel();
  const accept = await post(folio, LIST, { sessionId, headers: { accept: "application/json" } });
  assert.equal(accept.status, 406);
  await accept.body?.cancel();
  const get = await fetch(mcpUrl(folio), {
    headers: { accept: "text/event-stream", "mcp-session-id": sessionId },
  });
  assert.equal(get.status, 405);
  await get.body?.cancel();
  const noMethod = await post(folio, { jsonrpc: "2.0", id: 9, method: "no/such" }, { sessionId });
  assert.equal((await noMethod.json()).error.code, -32601);
});

Deno.test("a batch is accepted on a 2025-03-26 session, where batching still existed", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio, { protocolVersion: "2025-03-26" });
  const res = await post(folio, [LIST, { ...LIST, id: 3 }], { sessionId });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).length, 2);
});

const BAD_ARGUMENTS: [Record<string, unknown>, string][] = [
  [{ query: "energy", extra: 1 }, "extra: is not a known field"],
  [{ query: "" }, "query: must not be empty"],
  [{ query: "x".repeat(201) }, "query: must be at most 200 characters"],
  [{ query: "energy", limit: 51 }, 'limit: must be a whole number from 1 to 50, got "51"'],
  [{ query: "energy", limit: 0 }, 'limit: must be a whole number from 1 to 50, got "0"'],
  [{ query: "energy", limit: 2.5 }, 'limit: must be a whole number from 1 to 50, got "2.5"'],
  [{ query: "energy", limit: "5" }, 'limit: must be a whole number from 1 to 50, got "5"'],
  [{}, "query: is required, 1 to 200 characters"],
];

Deno.test("on 2025-11-25, bad tool arguments are a tool result with isError (SEP-1303)", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  for (const [args, problem] of BAD_ARGUMENTS) {
    const result = await client.callTool({ name: "search_articles", arguments: args });
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.deepEqual(result.content, [{
      type: "text",
      text: `Invalid arguments for search_articles: ${problem}`,
    }]);
    assert.equal((result.structuredContent as { status: string }).status, "invalid_arguments");
  }
  const id = await client.callTool({ name: "get_article", arguments: { url_or_id: " " } });
  assert.equal(id.isError, true);
  assert.equal(
    (id.content as { text: string }[])[0].text,
    "Invalid arguments for get_article: url_or_id: must not be empty",
  );
  // An unknown tool and a malformed request stay protocol errors (the spec's "Error Handling").
  await assert.rejects(
    client.callTool({ name: "no_such_tool", arguments: {} }),
    (err: unknown) => err instanceof McpError && (err as { code: number }).code === -32602,
  );
  await assert.rejects(
    client.callTool({ name: "search_articles", arguments: "energy" as never }),
    (err: unknown) => err instanceof McpError && (err as { code: number }).code === -32602,
  );
});

for (const version of ["2025-06-18", "2025-03-26"]) {
  Deno.test(`on ${version}, bad tool arguments answer -32602 as before`, async () => {
    await using folio = await startTestFolio();
    const { sessionId, protocolVersion } = await initialize(folio, { protocolVersion: version });
    assert.equal(protocolVersion, version);
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await post(folio, {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name, arguments: args },
      }, { sessionId });
      assert.equal(res.status, 200);
      return await res.json();
    };
    for (const [args, problem] of BAD_ARGUMENTS) {
      assert.deepEqual((await call("search_articles", args)).error, {
        code: -32602,
        message: `Invalid arguments for search_articles: ${problem}`,
      });
    }
    assert.deepEqual((await call("no_such_tool", {})).error, {
      code: -32602,
      message: "Unknown tool: no_such_tool",
    });
    // A good call on the same session is still a plain result.
    assert.equal((await call("list_recent", { limit: 1 })).result.isError, undefined);
  });
}

Deno.test("the SDK client reads each error with its MCP prefix once", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const message = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    assert.ok(err instanceof McpError, String(err));
    return (err as McpError).message;
  };
  assert.equal(
    await message(client.callTool({ name: "no_such_tool", arguments: {} })),
    "MCP error -32602: Unknown tool: no_such_tool",
  );
  assert.equal(
    await message(client.readResource({ uri: "ui://nope" })),
    "MCP error -32602: Resource not found: ui://nope",
  );
  // The SDK's own McpError (its tools/call request check) is sent bare too.
  const sdk = await message(
    client.request(
      { method: "tools/call", params: { name: 5 } as never },
      (await import("zod")).z.looseObject({}),
    ),
  );
  assert.match(sdk, /^MCP error -32602: Invalid tools\/call request: /);
  assert.equal(sdk.match(/MCP error/g)?.length, 1);
});

Deno.test("hostile and null Origins are refused with 403 on POST, GET and DELETE", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio);
  for (
    const origin of [
      "https://evil.example",
      "null",
      "http://demo.localhost.evil.example",
      "file://x",
    ]
  ) {
    for (const method of ["POST", "GET", "DELETE"]) {
      const res = await fetch(mcpUrl(folio), {
        method,
        headers: {
          origin,
          accept: ACCEPT,
          "content-type": "application/json",
          "mcp-session-id": sessionId,
        },
        body: method === "POST" ? JSON.stringify(LIST) : undefined,
      });
      assert.equal(res.status, 403, `${method} ${origin}`);
      const body = await res.json();
      assert.equal(body.id, null);
    }
  }
  // The session survived: no DELETE got through.
  const still = await post(folio, LIST, { sessionId });
  assert.equal(still.status, 200);
  await still.body?.cancel();
});

Deno.test("the platform's and the publisher's origins are processed, as is no Origin", async () => {
  await using folio = await startTestFolio();
  const { sessionId } = await initialize(folio);
  const port = new URL(folio.url).port;
  for (const origin of [folio.config.baseUrl, `http://demo.localhost:${port}`, null]) {
    const res = await post(folio, LIST, {
      sessionId,
      headers: origin ? { origin } : {},
    });
    assert.equal(res.status, 200, String(origin));
    await res.body?.cancel();
  }
});

Deno.test("a Host that is not ours is refused before any JSON-RPC handling (DNS rebinding)", async () => {
  await using folio = await startTestFolio();
  for (const host of ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io"]) {
    const res = await folio.request("/api/mcp/pub_demo", {
      method: "POST",
      host,
      headers: { accept: ACCEPT, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    assert.equal(res.status, 403, host);
    assert.equal(res.headers.get("mcp-session-id"), null);
    await res.body?.cancel();
  }
  const own = await folio.request("/api/mcp/pub_demo", {
    method: "POST",
    host: "demo.localhost",
    headers: { accept: ACCEPT, "content-type": "application/json" },
    body: JSON.stringify(LIST),
  });
  assert.equal(own.status, 400); // past the Host check; no session
  await own.body?.cancel();
});

Deno.test("an unknown publisher's MCP endpoint answers 404", async () => {
  await using folio = await startTestFolio();
  const { res } = await initialize(folio, { publisherId: "pub_nope" });
  assert.equal(res.status, 404);
});

Deno.test("a session of one publisher is unknown at another publisher's endpoint", async () => {
  await using folio = await startTestFolio();
  const { insertPublisher } = await import("../store/publishers.ts");
  await insertPublisher(folio.deps.store.db, { id: "pub_other", slug: "other", name: "Other" }, {
    now: folio.clock.now(),
  });
  const { sessionId } = await initialize(folio);
  const res = await post(folio, LIST, { sessionId, publisherId: "pub_other" });
  assert.equal(res.status, 404);
  await res.body?.cancel();
});
