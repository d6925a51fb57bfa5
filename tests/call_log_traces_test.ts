/**
 * Protocol-level calls in the publisher's call log (docs/SPEC.md "Events"): MCP initialize,
 * tools/list, ping and A2A methods that are not reads are logged as `_method:<name>` with status
 * trace, and the calls API and console list them on request (`status=trace` or `all`).
 */
import assert from "node:assert/strict";
import { rpc } from "../server/surfaces/a2a/_test_utils.ts";
import { demoVisitor, textOf } from "./console_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { initialize, post } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

function calls(folio: TestFolio, query = "") {
  return folio.request(`/api/publisher/calls${query}`, {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
}

async function protocolTraffic(folio: TestFolio) {
  const { sessionId } = await initialize(folio);
  const headers = { "mcp-protocol-version": "2025-06-18" };
  for (const [id, method] of [[2, "tools/list"], [3, "ping"]] as const) {
    const res = await post(folio, { jsonrpc: "2.0", id, method, params: {} }, {
      sessionId,
      headers,
    });
    await res.body?.cancel();
    assert.equal(res.status, 200);
  }
  const res = await post(folio, {
    jsonrpc: "2.0",
    id: 4,
    method: "tools/call",
    params: { name: "search_articles", arguments: { query: "rivers" } },
  }, { sessionId, headers });
  await res.body?.cancel();
  const card = await rpc(folio, "GetTask", { id: "task-that-does-not-exist" });
  assert.ok(card.body.error, "a GetTask for an unknown task is an error, logged as one");
}

Deno.test("protocol calls are trace rows the calls API lists on request, not hidden", async () => {
  await using folio = await testFolio();
  await protocolTraffic(folio);

  const byDefault: Body = await json(await calls(folio));
  assert.ok(byDefault.calls.every((c: Body) => c.status !== "trace"), "calls by default");
  assert.ok(byDefault.calls.some((c: Body) => c.tool === "search_articles"));

  const traces: Body = await json(await calls(folio, "?status=trace"));
  const tools = traces.calls.map((c: Body) => `${c.surface} ${c.tool} ${c.status}`);
  for (
    const expected of [
      "mcp _method:initialize trace",
      "mcp _method:tools/list trace",
      "mcp _method:ping trace",
      "mcp _method:tools/call trace",
    ]
  ) assert.ok(tools.includes(expected), `${expected} in ${tools.join(", ")}`);
  assert.ok(traces.calls.every((c: Body) => c.status === "trace"));

  const all: Body = await json(await calls(folio, "?status=all"));
  assert.equal(
    all.calls.length,
    byDefault.calls.length + traces.calls.length,
    "all = calls + traces",
  );
  const errors: Body = await json(await calls(folio, "?status=error"));
  assert.ok(errors.calls.some((c: Body) => c.tool === "_method:GetTask"), "a failed method");

  const bad = await calls(folio, "?status=hidden");
  const body: Body = await json(bad);
  assert.equal(bad.status, 400);
  assert.equal(body.error.param, "status");
});

Deno.test("the console's calls page shows protocol traces when asked", async () => {
  await using folio = await testFolio();
  await protocolTraffic(folio);
  const visitor = await demoVisitor(folio);
  const plain = await visitor.get("/publisher/calls");
  assert.doesNotMatch(textOf(plain.html), /Protocol: initialize/);
  const traced = await visitor.get("/publisher/calls?status=trace");
  assert.equal(traced.status, 200);
  const text = textOf(traced.html);
  assert.match(text, /Protocol: initialize/);
  assert.match(text, /Protocol: ping/);
  assert.match(traced.html, /<option value="trace" selected>/);
});
