/** The A2A server driven by the official SDK client, plus the card, toggles, hosts and billing. */
import assert from "node:assert/strict";
import { AgentCard, type Message, SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import { Client, DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import {
  loopbackFetch,
  message,
  origin,
  rpc,
  sdkClientFactory,
  stateOf,
} from "../server/surfaces/a2a/_test_utils.ts";
import { demoIds, patchDemo } from "./fixtures/demo.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, startTestFolio } from "./helpers.ts";

function send(json: Record<string, unknown>): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: json });
}

function asTask(result: Message | Task): Task {
  assert.ok("status" in result, "the agent answers with a task");
  return result as Task;
}

Deno.test("the SDK client discovers the card, sends messages, gets and cancels tasks (v1.0)", async () => {
  await using folio = await startTestFolio();
  using fetchImpl = loopbackFetch(folio);
  const client = await sdkClientFactory(fetchImpl).createFromUrl(origin(folio));
  assert.equal(client.protocolVersion, "1.0");
  const card = await client.getAgentCard();
  assert.equal(card.name, "The Demo Ledger");
  assert.deepEqual(card.skills.map((s) => s.id), ["search_articles", "get_article"]);

  const found = asTask(await client.sendMessage(send(message("1.0", { text: "heat pumps" }))));
  assert.equal(found.status?.state, TaskState.TASK_STATE_COMPLETED);
  const results = found.artifacts[0].parts.find((p) => p.content?.$case === "data")?.content;
  // deno-lint-ignore no-explicit-any
  const first = (results?.value as any).results[0];
  assert.ok(first.id && first.url);

  const read = asTask(
    await client.sendMessage(send(message("1.0", {
      data: { skill: "get_article", url_or_id: first.id, last_user_prompt: "Do they work?" },
    }))),
  );
  assert.equal(read.status?.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(read.artifacts[0].name, "article");

  const got = await client.getTask({ tenant: "", id: read.id });
  assert.equal(got.id, read.id);
  assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
  await assert.rejects(
    () => client.cancelTask({ tenant: "", id: read.id, metadata: undefined }),
    (err: Error) => /not cancel/i.test(err.message) || err.name === "TaskNotCancelableError",
  );
  await assert.rejects(() => client.getTask({ tenant: "", id: crypto.randomUUID() }));

  // An interrupted (auth-required) task is cancelable through the SDK.
  const paid = await demoIds(folio, "PAYWALL");
  let last: Task | null = null;
  for (const id of paid.slice(0, 4)) {
    last = asTask(
      await client.sendMessage(
        send(message("1.0", { data: { skill: "get_article", url_or_id: id } })),
      ),
    );
  }
  assert.equal(last!.status?.state, TaskState.TASK_STATE_AUTH_REQUIRED);
  const canceled = await client.cancelTask({ tenant: "", id: last!.id, metadata: undefined });
  assert.equal(canceled.status?.state, TaskState.TASK_STATE_CANCELED);
});

Deno.test("the SDK's v0.3 transport speaks message/send, tasks/get and tasks/cancel to the same endpoint", async () => {
  await using folio = await startTestFolio();
  using fetchImpl = loopbackFetch(folio);
  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(origin(folio));
  const legacy = card.supportedInterfaces.find((i) => i.protocolVersion === "0.3");
  assert.ok(legacy, "the card advertises a v0.3 JSON-RPC interface");
  const client = new Client(new LegacyJsonRpcTransport({ endpoint: legacy.url, fetchImpl }), card);
  const task = asTask(await client.sendMessage(send(message("1.0", { text: "dams and rivers" }))));
  assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
  const got = await client.getTask({ tenant: "", id: task.id });
  assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
  await assert.rejects(() => client.cancelTask({ tenant: "", id: task.id, metadata: undefined }));
  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute(
    "SELECT tool FROM call_log WHERE surface = 'a2a' ORDER BY id",
  );
  assert.deepEqual(rs.rows.map((r) => r.tool), [
    "search_articles",
    "_method:tasks/get",
    "_method:tasks/cancel",
  ]);
});

Deno.test("a buyer key is charged once for a PAYWALL article read over A2A", async () => {
  await using folio = await startTestFolio();
  const { buyerId, apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Agent Co",
    email: "billing@agent.example",
  }, { now: folio.clock.now() });
  const [paid] = await demoIds(folio, "PAYWALL");
  const msg = message("1.0", { data: { skill: "get_article", url_or_id: paid } });
  const first = await rpc(folio, "SendMessage", { message: msg }, { auth: `Bearer ${apiKey}` });
  assert.equal(stateOf(first.body.result), "completed");
  // The same message resent (same messageId) is a retry: served again, not billed again.
  const retry = await rpc(folio, "SendMessage", { message: msg }, { auth: `Bearer ${apiKey}` });
  assert.equal(stateOf(retry.body.result), "completed");
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT article_id, kind, price_micros, identity, surface FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(rs.rows.length, 1);
  const row = rs.rows[0];
  assert.equal(row.article_id, paid);
  assert.equal(row.kind, "metered");
  assert.ok(Number(row.price_micros) > 0);
  assert.equal(row.identity, `buyer:${buyerId}`);
  assert.equal(row.surface, "a2a");
});

Deno.test("bad credentials get one identical 401 and Require auth refuses anonymous callers", async () => {
  await using folio = await startTestFolio();
  const params = { message: message("1.0", { text: "rivers" }) };
  const bodies = [];
  for (
    const auth of ["Bearer mk_nope", "Bearer mk_" + "a".repeat(38), "Basic abc", "Bearer fat_x"]
  ) {
    const r = await rpc(folio, "SendMessage", params, { auth });
    assert.equal(r.status, 401, auth);
    bodies.push(JSON.stringify(r.body));
  }
  assert.equal(new Set(bodies).size, 1, "the same body whatever was wrong");
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  const anon = await rpc(folio, "SendMessage", params);
  assert.equal(anon.status, 401);
  const { apiKey } = await createBuyer(folio.deps.store.db, { name: "B", email: "b@b.example" }, {
    now: folio.clock.now(),
  });
  const buyer = await rpc(folio, "SendMessage", params, { auth: `Bearer ${apiKey}` });
  assert.equal(stateOf(buyer.body.result), "completed");
  const card = await json(
    await folio.request("/.well-known/agent-card.json", {
      host: "demo.localhost",
      headers: { "A2A-Version": "1.0" },
    }),
  );
  // deno-lint-ignore no-explicit-any
  const schemes = card.securitySchemes as any;
  assert.ok(schemes.buyerKey.httpAuthSecurityScheme);
  assert.ok(schemes.oauth.oauth2SecurityScheme.flows.authorizationCode.pkceRequired);
});

Deno.test("a card per version: a v0.3 reader and a v1.0 reader both find how to authenticate", async () => {
  await using folio = await startTestFolio();
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  using fetchImpl = loopbackFetch(folio);
  const res = await fetchImpl(`${origin(folio)}/.well-known/agent-card.json`);
  assert.equal(res.headers.get("vary"), "A2A-Version");
  const raw = await res.json();
  // v0.3 (no A2A-Version header): OpenAPI-like schemes and name → scopes requirements.
  assert.deepEqual(raw.security, [{ buyerKey: [] }, { oauth: [] }]);
  assert.equal(raw.securitySchemes.buyerKey.type, "http");
  assert.equal(raw.securitySchemes.buyerKey.scheme, "bearer");
  assert.equal(raw.securitySchemes.oauth.type, "oauth2");
  assert.match(raw.securitySchemes.oauth.flows.authorizationCode.tokenUrl, /\/api\/oauth\/token$/);
  assert.deepEqual(raw.additionalInterfaces, [{ url: raw.url, transport: "JSONRPC" }]);
  assert.equal(raw.supportsAuthenticatedExtendedCard, false);
  const v03 = parseLegacyAgentCard(raw);
  const bearer = v03.securitySchemes.buyerKey.scheme;
  assert.equal(bearer?.$case, "httpAuthSecurityScheme");
  assert.equal(bearer?.$case === "httpAuthSecurityScheme" && bearer.value.scheme, "bearer");
  const oauth = v03.securitySchemes.oauth.scheme;
  assert.equal(
    oauth?.$case === "oauth2SecurityScheme" && oauth.value.flows?.flow?.$case,
    "authorizationCode",
  );
  assert.deepEqual(
    v03.securityRequirements.map((r) => Object.keys(r.schemes)),
    [["buyerKey"], ["oauth"]],
  );
  // The v0.3 reader then authenticates with what the card told it and is served.
  const { apiKey } = await createBuyer(folio.deps.store.db, { name: "V", email: "v@v.example" }, {
    now: folio.clock.now(),
  });
  using keyed = loopbackFetch(folio, { auth: `Bearer ${apiKey}` });
  const legacy = new Client(
    new LegacyJsonRpcTransport({ endpoint: v03.supportedInterfaces[0].url, fetchImpl: keyed }),
    v03,
  );
  const task = asTask(await legacy.sendMessage(send(message("1.0", { text: "dams" }))));
  assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);

  // v1.0: the SDK's resolver sends A2A-Version: 1.0 and gets the v1.0 form alone.
  const v1 = await new DefaultAgentCardResolver({ fetchImpl }).resolve(origin(folio));
  assert.equal(v1.securitySchemes.buyerKey.scheme?.$case, "httpAuthSecurityScheme");
  assert.equal(v1.securitySchemes.oauth.scheme?.$case, "oauth2SecurityScheme");
  assert.deepEqual(
    v1.securityRequirements.map((r) => Object.keys(r.schemes)),
    [["buyerKey"], ["oauth"]],
  );
  const pure = await (await fetchImpl(`${origin(folio)}/.well-known/agent-card.json`, {
    headers: { "A2A-Version": "1.0" },
  })).json();
  assert.equal(
    "security" in pure || "url" in pure || "type" in pure.securitySchemes.buyerKey,
    false,
  );
  assert.deepEqual(AgentCard.fromJSON(pure), v1);
  // The v0.3 card carries no v1.0 field.
  assert.equal("supportedInterfaces" in raw || "securityRequirements" in raw, false);
  assert.equal("httpAuthSecurityScheme" in raw.securitySchemes.buyerKey, false);
});

Deno.test("the agent card is served by host and by slug, and carries no secrets", async () => {
  await using folio = await startTestFolio();
  const byHost = await folio.request("/.well-known/agent-card.json", { host: "demo.localhost" });
  assert.equal(byHost.status, 200);
  assert.equal(byHost.headers.get("access-control-allow-origin"), "*");
  const card = await byHost.json();
  const port = new URL(folio.url).port;
  assert.equal(card.url, `http://demo.localhost:${port}/a2a`);
  assert.ok(card.skills.every((s: { examples: string[] }) => s.examples.length > 0));
  assert.deepEqual(card.capabilities, { streaming: true, pushNotifications: false });
  const v1 = await json(
    await folio.request("/.well-known/agent-card.json?version=1.0", { host: "demo.localhost" }),
  );
  assert.deepEqual(
    // deno-lint-ignore no-explicit-any
    (v1.supportedInterfaces as any[]).map((i) => [i.url, i.protocolBinding, i.protocolVersion]),
    [[card.url, "JSONRPC", "1.0"], [card.url, "JSONRPC", "0.3"]],
  );
  assert.deepEqual(v1.capabilities, {
    streaming: true,
    pushNotifications: false,
    extendedAgentCard: false,
  });
  const bySlug = await json(await folio.request("/.well-known/agent-card.json?slug=demo"));
  assert.deepEqual(bySlug, card);
  const text = JSON.stringify(card);
  for (const secret of [/pk_[0-9A-Za-z]{20}/, /mk_[0-9A-Za-z]{20}/, /fat_/, /@/, /password/i]) {
    assert.doesNotMatch(text, secret);
  }
  // A publisher without a custom domain advertises the platform path.
  await patchDemo(folio, (p) => ({ ...p, customDomain: null }));
  const platform = await json(await folio.request("/.well-known/agent-card.json?slug=demo"));
  assert.match(String(platform.url), /\/api\/a2a\/pub_demo$/);
  const viaPath = await rpc(folio, "message/send", { message: message("0.3", { text: "dams" }) }, {
    path: "/api/a2a/pub_demo",
  });
  assert.equal(stateOf(viaPath.body.result), "completed");
});

Deno.test("A2A off, an unknown host and an unknown publisher answer 404 on card and endpoint", async () => {
  await using folio = await startTestFolio();
  const params = { message: message("0.3", { text: "dams" }) };
  const unknownHost = await rpc(folio, "message/send", params, { host: "nobody.example" });
  assert.equal(unknownHost.status, 404);
  const unknownCard = await folio.request("/.well-known/agent-card.json", {
    host: "nobody.example",
  });
  assert.equal(unknownCard.status, 404);
  await unknownCard.body?.cancel();
  const noSlug = await folio.request("/.well-known/agent-card.json?slug=nobody");
  assert.equal(noSlug.status, 404);
  await noSlug.body?.cancel();
  assert.equal(
    (await rpc(folio, "message/send", params, { path: "/api/a2a/pub_nobody" })).status,
    404,
  );

  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, a2a: false } }));
  for (const init of [{ host: "demo.localhost" }, {}]) {
    const path = "host" in init
      ? "/.well-known/agent-card.json"
      : "/.well-known/agent-card.json?slug=demo";
    const res = await folio.request(path, init);
    assert.equal(res.status, 404);
    await res.body?.cancel();
  }
  assert.equal((await rpc(folio, "message/send", params)).status, 404);
  assert.equal(
    (await rpc(folio, "message/send", params, { path: "/api/a2a/pub_demo" })).status,
    404,
  );
  const rs = await folio.deps.store.db.execute("SELECT COUNT(*) AS n FROM a2a_tasks");
  assert.equal(Number(rs.rows[0].n), 0);
});
