/** ListTasks (A2A v1.0): the SDK client pages through a caller's own tasks; filters; refusals. */
import assert from "node:assert/strict";
import { SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { loopbackFetch, message, rpc, sdkClient } from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { DEFAULT_TOGGLES, insertPublisher } from "../store/publishers.ts";
import { startTestFolio, type TestFolio, testFolio } from "./helpers.ts";

function buyer(folio: TestFolio, email: string) {
  return createBuyer(folio.deps.store.db, { name: email, email }, { now: folio.clock.now() });
}

async function search(client: Client, text: string, extra: Record<string, unknown> = {}) {
  const r = await client.sendMessage(
    SendMessageRequest.fromJSON({ message: message("1.0", { text }, extra) }),
  );
  return r as Task;
}

/** Every page of `client`'s tasks, following nextPageToken. */
async function allPages(client: Client, pageSize: number) {
  const pages: { ids: string[]; next: string; total: number }[] = [];
  let token = "";
  do {
    const page = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize,
      pageToken: token,
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: undefined,
    });
    pages.push({
      ids: page.tasks.map((t) => t.id),
      next: page.nextPageToken,
      total: page.totalSize,
    });
    token = page.nextPageToken;
  } while (token && pages.length < 20);
  return pages;
}

Deno.test("the SDK client pages through its own tasks, newest first, and never sees another caller's or publisher's", async () => {
  await using folio = await startTestFolio();
  const a = await buyer(folio, "a@agents.example");
  const b = await buyer(folio, "b@agents.example");
  await insertPublisher(folio.deps.store.db, {
    id: "pub_b",
    slug: "bee",
    name: "Bee",
    toggles: { ...DEFAULT_TOGGLES, a2a: true },
  }, { now: folio.clock.now() });
  using asA = loopbackFetch(folio, { auth: `Bearer ${a.apiKey}` });
  using asB = loopbackFetch(folio, { auth: `Bearer ${b.apiKey}` });
  const clientA = await sdkClient(asA, folio);
  const clientB = await sdkClient(asB, folio);
  const mine: string[] = [];
  for (const q of ["dams", "rivers", "heat pumps", "solar", "wind"]) {
    mine.unshift((await search(clientA, q)).id);
    folio.clock.advance(1000);
  }
  const theirs = (await search(clientB, "dams")).id;
  // The same buyer at another publisher, and an anonymous caller here.
  const elsewhere = await rpc(folio, "SendMessage", { message: message("1.0", { text: "x" }) }, {
    auth: `Bearer ${a.apiKey}`,
    path: "/api/a2a/pub_b",
  });
  assert.ok(elsewhere.body.result.task.id);
  await rpc(folio, "SendMessage", { message: message("1.0", { text: "dams" }) });

  const pages = await allPages(clientA, 2);
  assert.deepEqual(pages.map((p) => p.ids.length), [2, 2, 1]);
  assert.deepEqual(pages.flatMap((p) => p.ids), mine, "newest first, no overlap, nothing missing");
  assert.ok(pages.every((p) => p.total === 5));
  assert.equal(pages.at(-1)!.next, "");
  assert.deepEqual((await allPages(clientB, 50)).flatMap((p) => p.ids), [theirs]);

  // Artifacts only when asked; history cut to historyLength.
  const plain = await clientA.listTasks(listRequest({ pageSize: 1 }));
  assert.equal(plain.tasks[0].artifacts.length, 0);
  assert.ok(plain.tasks[0].history.length > 0);
  const full = await clientA.listTasks(
    listRequest({ pageSize: 1, includeArtifacts: true, historyLength: 0 }),
  );
  assert.equal(full.tasks[0].artifacts[0].name, "search_results");
  assert.equal(full.tasks[0].history.length, 0);
  // Another caller's page token only ever pages through the holder's own tasks.
  const stolen = await clientB.listTasks(listRequest({ pageToken: pages[0].next }));
  assert.ok(stolen.tasks.every((t) => t.id === theirs));
});

Deno.test("ListTasks filters by contextId, status and status timestamp", async () => {
  await using folio = await testFolio();
  const { apiKey } = await buyer(folio, "f@agents.example");
  const auth = `Bearer ${apiKey}`;
  const send = (msg: Record<string, unknown>) =>
    rpc(folio, "SendMessage", { message: msg }, { auth });
  const list = async (params: Record<string, unknown>) => {
    const r = await rpc(folio, "ListTasks", params, { auth });
    assert.ok(r.body.result, JSON.stringify(r.body));
    // deno-lint-ignore no-explicit-any
    return r.body.result as { tasks: any[]; nextPageToken: string; totalSize: number };
  };
  await send(message("1.0", { text: "dams" }, { contextId: "ctx-1" }));
  await send(message("1.0", { text: "rivers" }, { contextId: "ctx-1" }));
  const cutoff = new Date(folio.clock.now().getTime() + 60_000).toISOString();
  folio.clock.advance(120_000);
  const failed = await send(
    message("1.0", { data: { skill: "get_article", url_or_id: "a000000000000000" } }),
  );
  const failedId = failed.body.result.task.id;

  const ctx = await list({ contextId: "ctx-1" });
  assert.equal(ctx.totalSize, 2);
  assert.ok(ctx.tasks.every((t) => t.contextId === "ctx-1"));
  assert.equal(ctx.nextPageToken, "");
  assert.equal("artifacts" in ctx.tasks[0], false, "artifacts left out entirely by default");
  const byStatus = await list({ status: "TASK_STATE_FAILED" });
  assert.deepEqual(byStatus.tasks.map((t) => t.id), [failedId]);
  assert.equal((await list({ status: "TASK_STATE_COMPLETED" })).totalSize, 2);
  assert.equal((await list({ status: "TASK_STATE_CANCELED" })).totalSize, 0);
  // ProtoJSON enums by number too: 0 is unspecified (no filter).
  assert.deepEqual((await list({ status: TaskState.TASK_STATE_FAILED })).tasks.map((t) => t.id), [
    failedId,
  ]);
  assert.equal((await list({ status: TaskState.TASK_STATE_COMPLETED })).totalSize, 2);
  assert.equal((await list({ status: 0 })).totalSize, 3);
  const recent = await list({ statusTimestampAfter: cutoff });
  assert.deepEqual(recent.tasks.map((t) => t.id), [failedId]);
  assert.equal((await list({})).totalSize, 3);
});

Deno.test("ListTasks refuses bad parameters with -32602 and anonymous callers with 401", async () => {
  await using folio = await testFolio();
  const { apiKey } = await buyer(folio, "n@agents.example");
  const auth = `Bearer ${apiKey}`;
  await rpc(folio, "SendMessage", { message: message("1.0", { text: "dams" }) }, { auth });
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ pageToken: "not-a-token" }, /^Invalid params: pageToken: is not a token/],
    [{ pageToken: btoa("[1,2]") }, /pageToken/],
    [{ pageToken: 7 }, /pageToken/],
    [{ pageSize: 0 }, /pageSize: must be an integer from 1 to 100/],
    [{ pageSize: 101 }, /pageSize/],
    [{ pageSize: "ten" }, /pageSize/],
    [{ status: "TASK_STATE_DONE" }, /status: must be a task state/],
    [{ status: 99 }, /status: must be a task state/],
    [{ status: 1.5 }, /status: must be a task state/],
    [{ statusTimestampAfter: "yesterday" }, /statusTimestampAfter/],
    [{ historyLength: -1 }, /historyLength/],
    [{ includeArtifacts: "yes" }, /includeArtifacts/],
    [{ contextId: 5 }, /contextId/],
    [{ owner: "someone else" }, /owner: is not a ListTasks parameter/],
  ];
  for (const [params, wording] of bad) {
    const r = await rpc(folio, "ListTasks", params, { auth });
    assert.equal(r.status, 200);
    assert.equal(r.body.error?.code, -32602, JSON.stringify(params));
    assert.match(r.body.error.message, wording);
  }
  const anon = await folio.request("/a2a", {
    method: "POST",
    host: "demo.localhost",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ListTasks", params: {} }),
  });
  assert.equal(anon.status, 401);
  assert.equal(anon.headers.get("www-authenticate"), 'Bearer realm="folio"');
  const body = await anon.json();
  assert.equal(body.id, 3);
  assert.equal(body.error.code, -32000);
  assert.equal(body.error.data.status, "authentication_required");
  // v0.3 has no JSON-RPC listing method.
  assert.equal((await rpc(folio, "tasks/list", {}, { auth })).body.error.code, -32601);
});

function listRequest(over: Partial<Parameters<Client["listTasks"]>[0]>) {
  return {
    tenant: "",
    contextId: "",
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: undefined,
    pageToken: "",
    historyLength: undefined,
    statusTimestampAfter: undefined,
    includeArtifacts: undefined,
    ...over,
  };
}
