/**
 * Streaming on the A2A endpoint with the SDK's clients: SendStreamingMessage and message/stream
 * (events in order, final state), a charged read decided once, cancel of a running stream,
 * SubscribeToTask, and the refusals (401, bad params, finished or foreign tasks).
 */
import assert from "node:assert/strict";
import { SendMessageRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { Client, DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import {
  loopbackFetch,
  message,
  origin,
  post,
  rpc,
  sdkClient,
  taskOf,
} from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { demoIds, patchDemo } from "./fixtures/demo.ts";
import { startTestFolio, type TestFolio } from "./helpers.ts";

function send(json: Record<string, unknown>): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: json });
}

/** Each event as [kind, state name or artifact name]. */
function shape(events: StreamResponse[]): [string, string][] {
  return events.map((e) => {
    const p = e.payload!;
    switch (p.$case) {
      case "task":
        return ["task", TaskState[p.value.status!.state]];
      case "statusUpdate":
        return ["status", TaskState[p.value.status!.state]];
      case "artifactUpdate":
        return ["artifact", p.value.artifact!.name];
      default:
        return [p.$case, ""];
    }
  });
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** Makes the search service wait until `release()` (to hold a run while it is working). */
function holdSearch(folio: TestFolio): { release: () => void; entered: Promise<void> } {
  const search = folio.deps.search as { search: (...args: unknown[]) => Promise<unknown> };
  const original = search.search.bind(search);
  let release!: () => void;
  let enter!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const entered = new Promise<void>((r) => (enter = r));
  search.search = async (...args: unknown[]) => {
    enter();
    await gate;
    return original(...args);
  };
  return { release, entered };
}

Deno.test("a streamed search is Task, working, artifact, completed, in order (v1.0 and v0.3)", async () => {
  await using folio = await startTestFolio();
  using fetchImpl = loopbackFetch(folio);
  const client = await sdkClient(fetchImpl, folio);
  assert.equal((await client.getAgentCard()).capabilities?.streaming, true);
  const events = await collect(client.sendMessageStream(send(message("1.0", { text: "dams" }))));
  const expected = [
    ["task", "TASK_STATE_SUBMITTED"],
    ["status", "TASK_STATE_WORKING"],
    ["artifact", "search_results"],
    ["status", "TASK_STATE_COMPLETED"],
  ];
  assert.deepEqual(shape(events), expected);
  const p = events[0].payload!;
  const id = p.$case === "task" ? p.value.id : "";
  const stored = await client.getTask({ tenant: "", id });
  assert.equal(stored.status?.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(stored.artifacts[0].name, "search_results");

  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(origin(folio));
  const legacy = new Client(
    new LegacyJsonRpcTransport({ endpoint: card.supportedInterfaces[1].url, fetchImpl }),
    card,
  );
  const old = await collect(legacy.sendMessageStream(send(message("1.0", { text: "rivers" }))));
  assert.deepEqual(shape(old), expected);

  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute(
    "SELECT tool, status FROM call_log WHERE surface = 'a2a' ORDER BY id",
  );
  assert.deepEqual(rs.rows.map((r) => [r.tool, r.status]), [
    ["search_articles", "ok"],
    ["_method:GetTask", "trace"],
    ["search_articles", "ok"],
  ]);
});

Deno.test("a streamed charged read is decided, charged and call-logged exactly once", async () => {
  await using folio = await startTestFolio();
  const { buyerId, apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Stream Co",
    email: "s@stream.example",
  }, { now: folio.clock.now() });
  using fetchImpl = loopbackFetch(folio, { auth: `Bearer ${apiKey}` });
  const client = await sdkClient(fetchImpl, folio);
  const [paid] = await demoIds(folio, "PAYWALL");
  const msg = message("1.0", { data: { skill: "get_article", url_or_id: paid } });
  const events = await collect(client.sendMessageStream(send(msg)));
  assert.deepEqual(shape(events).slice(2), [
    ["artifact", "article"],
    ["status", "TASK_STATE_COMPLETED"],
  ]);
  // The same message streamed again is a retry: served, not billed again.
  const again = await collect(client.sendMessageStream(send(msg)));
  assert.equal(shape(again).at(-1)![1], "TASK_STATE_COMPLETED");
  const charges = await folio.deps.store.db.execute({
    sql: "SELECT article_id, surface FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.deepEqual(charges.rows.map((r) => [r.article_id, r.surface]), [[paid, "a2a"]]);
  await folio.deps.callLog.flush();
  const calls = await folio.deps.store.db.execute(
    "SELECT tool, identity FROM call_log WHERE surface = 'a2a' ORDER BY id",
  );
  assert.deepEqual(calls.rows.map((r) => [r.tool, r.identity]), [
    ["get_article", `buyer:${buyerId}`],
    ["get_article", `buyer:${buyerId}`],
  ]);
});

Deno.test("cancel on a running streamed task ends the stream canceled, with no results", async () => {
  await using folio = await startTestFolio();
  using fetchImpl = loopbackFetch(folio);
  const client = await sdkClient(fetchImpl, folio);
  const held = holdSearch(folio);
  const stream = client.sendMessageStream(send(message("1.0", { text: "heat pumps" })));
  const first = (await stream.next()).value as StreamResponse;
  const working = (await stream.next()).value as StreamResponse;
  assert.deepEqual(shape([first, working]), [
    ["task", "TASK_STATE_SUBMITTED"],
    ["status", "TASK_STATE_WORKING"],
  ]);
  const id = first.payload!.$case === "task" ? first.payload!.value.id : "";
  await held.entered;
  const canceled = await client.cancelTask({ tenant: "", id, metadata: undefined });
  assert.equal(canceled.status?.state, TaskState.TASK_STATE_CANCELED);
  held.release();
  const rest: StreamResponse[] = [];
  for (let e = await stream.next(); !e.done; e = await stream.next()) rest.push(e.value);
  assert.deepEqual(shape(rest), [["status", "TASK_STATE_CANCELED"]]);
  const stored = await client.getTask({ tenant: "", id });
  assert.equal(stored.status?.state, TaskState.TASK_STATE_CANCELED);
  assert.equal(stored.artifacts.length, 0, "the run stopped before publishing results");
  await assert.rejects(() => client.cancelTask({ tenant: "", id, metadata: undefined }));
});

Deno.test("SubscribeToTask follows a running task to its end; finished and foreign tasks are refused", async () => {
  await using folio = await startTestFolio();
  using fetchImpl = loopbackFetch(folio);
  const client = await sdkClient(fetchImpl, folio);
  const held = holdSearch(folio);
  const stream = client.sendMessageStream(send(message("1.0", { text: "solar" })));
  const first = (await stream.next()).value as StreamResponse;
  await stream.next();
  const id = first.payload!.$case === "task" ? first.payload!.value.id : "";
  await held.entered;
  const subscription = client.resubscribeTask({ tenant: "", id });
  const snapshot = (await subscription.next()).value as StreamResponse;
  assert.deepEqual(shape([snapshot]), [["task", "TASK_STATE_WORKING"]]);
  held.release();
  const followed = await collect({ [Symbol.asyncIterator]: () => subscription });
  assert.deepEqual(shape(followed), [
    ["artifact", "search_results"],
    ["status", "TASK_STATE_COMPLETED"],
  ]);
  const original = await collect({ [Symbol.asyncIterator]: () => stream });
  assert.equal(shape(original).at(-1)![1], "TASK_STATE_COMPLETED");

  // A finished task has nothing to follow; another caller's task is not found (both versions).
  const finished = await rpc(folio, "SubscribeToTask", { id });
  assert.equal(finished.body.error.code, -32004);
  assert.equal((await rpc(folio, "tasks/resubscribe", { id })).body.error.code, -32004);
  const { apiKey } = await createBuyer(folio.deps.store.db, { name: "O", email: "o@o.example" }, {
    now: folio.clock.now(),
  });
  const foreign = await rpc(folio, "SubscribeToTask", { id }, { auth: `Bearer ${apiKey}` });
  assert.equal(foreign.body.error.code, -32001);
  assert.equal(
    (await rpc(folio, "SubscribeToTask", { id: crypto.randomUUID() })).body.error.code,
    -32001,
  );
});

Deno.test("streams are refused like sends: 401 without auth, -32602 for bad params, a failed run ends the stream", async () => {
  await using folio = await startTestFolio();
  const body = (method: string, params: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id: 5, method, params });
  const accept = { accept: "text/event-stream" };
  const bad = await post(folio, body("message/stream", { message: message("0.3", { text: "" }) }), {
    headers: accept,
  });
  assert.equal(bad.status, 200);
  assert.equal(bad.body.error.code, -32602);
  assert.match(bad.body.error.message, /^Invalid params: query/);

  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  for (const method of ["SendStreamingMessage", "message/stream", "SubscribeToTask"]) {
    const r = await post(folio, body(method, { message: message("1.0", { text: "dams" }) }), {
      headers: accept,
    });
    assert.equal(r.status, 401, method);
    assert.equal(r.body.error.code, -32000);
  }
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: false } }));

  // The search service failing mid-run: the stream ends with a failed task, not a cut connection.
  folio.deps.search.search = () => Promise.reject(new Error("index unavailable"));
  const res = await folio.request("/a2a", {
    method: "POST",
    host: "demo.localhost",
    headers: { "content-type": "application/json", ...accept },
    body: body("SendStreamingMessage", { message: message("1.0", { text: "dams" }) }),
  });
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const events = (await res.text()).split("\n\n").filter(Boolean).map((chunk) =>
    JSON.parse(chunk.replace(/^data: /, ""))
  );
  assert.ok(events.every((e) => e.jsonrpc === "2.0" && e.id === 5));
  const last = events.at(-1);
  assert.equal(last.result.statusUpdate.status.state, "TASK_STATE_FAILED");
  const got = await rpc(folio, "GetTask", { id: last.result.statusUpdate.taskId });
  assert.equal(taskOf(got.body.result).status.state, "TASK_STATE_FAILED");
});
