/** The A2A JSON-RPC endpoint driven with raw requests: every error code and every task transition. */
import assert from "node:assert/strict";
import {
  message,
  METHODS,
  post,
  rpc,
  stateOf,
  statusData,
  taskOf,
} from "../server/surfaces/a2a/_test_utils.ts";
import { demoIds, patchDemo } from "./fixtures/demo.ts";
import { countA2aTasks } from "../store/a2a_tasks.ts";
import { recentCalls } from "../store/call_log.ts";
import { insertRule } from "../store/rules.ts";
import { setArticlePolicy } from "../store/articles.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

Deno.test("malformed JSON, a wrong jsonrpc version and an unknown method get -32700, -32600 and -32601", async () => {
  await using folio = await testFolio();
  const parse = await post(folio, '{"jsonrpc": "2.0", "id": 1, "method": ');
  assert.equal(parse.status, 200);
  assert.deepEqual(parse.body.error.code, -32700);
  assert.equal(parse.body.id, null);
  const version = await post(folio, JSON.stringify({ jsonrpc: "1.0", id: 7, method: "GetTask" }));
  assert.equal(version.body.error.code, -32600);
  assert.equal(version.body.id, 7);
  const noMethod = await post(folio, JSON.stringify({ jsonrpc: "2.0", id: 8 }));
  assert.equal(noMethod.body.error.code, -32600);
  const badId = await post(folio, JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "x" }));
  assert.equal(badId.body.error.code, -32600);
  for (const method of ["tasks/list", "DeleteTask", "message/sendd"]) {
    const r = await rpc(folio, method, {});
    assert.equal(r.body.error.code, -32601, method);
  }
  const scalar = await post(folio, "42");
  assert.equal(scalar.body.error.code, -32600);
});

for (const v of ["1.0", "0.3"] as const) {
  const m = METHODS[v];

  Deno.test(`invalid params get -32602 and create no task (A2A ${v} names)`, async () => {
    await using folio = await testFolio();
    const cases: unknown[] = [
      [],
      { message: "hello" },
      { message: message(v, { text: "" }) },
      { message: message(v, { text: "x".repeat(201) }) },
      { message: message(v, { data: { skill: "search_articles", query: "q", limit: 51 } }) },
      { message: message(v, { data: { skill: "get_article" } }) },
      { message: message(v, { data: { skill: "get_article", url_or_id: "a", extra: 1 } }) },
      { message: message(v, { data: { skill: "delete_everything" } }) },
      { message: { ...message(v, { text: "q" }), messageId: undefined } },
      { message: { ...message(v, { text: "q" }), role: v === "1.0" ? "ROLE_AGENT" : "agent" } },
    ];
    for (const params of cases) {
      const r = await rpc(folio, m.send, params);
      assert.equal(r.body.error?.code, -32602, JSON.stringify(params).slice(0, 120));
      assert.match(r.body.error.message, /^Invalid params/);
    }
    const named = await rpc(folio, m.send, { message: message(v, { text: "x".repeat(300) }) });
    assert.match(named.body.error.message, /query: must be at most 200 characters/);
    const file = await rpc(folio, m.send, {
      message: { ...message(v, { text: "q" }), parts: [{ url: "https://example.com/a.pdf" }] },
    });
    assert.equal(file.body.error.code, -32005);
    assert.deepEqual(await countA2aTasks(folio.deps.store.db, "pub_demo"), {});
  });

  Deno.test(`an unknown or another caller's task is -32001 on get and cancel (A2A ${v} names)`, async () => {
    await using folio = await testFolio();
    const r = await rpc(folio, m.get, { id: crypto.randomUUID() });
    assert.equal(r.body.error.code, -32001);
    const c = await rpc(folio, m.cancel, { id: crypto.randomUUID() });
    assert.equal(c.body.error.code, -32001);
    // A task made by a buyer is invisible to an anonymous caller with its id.
    const { apiKey } = await signup(folio);
    const sent = await rpc(folio, m.send, { message: message(v, { text: "heat pumps" }) }, {
      auth: `Bearer ${apiKey}`,
    });
    const id = taskOf(sent.body.result).id;
    assert.equal((await rpc(folio, m.get, { id })).body.error.code, -32001);
    const own = await rpc(folio, m.get, { id }, { auth: `Bearer ${apiKey}` });
    assert.equal(stateOf(own.body.result), "completed");
  });

  Deno.test(`a search completes and a completed task cannot be canceled (A2A ${v} names)`, async () => {
    await using folio = await testFolio();
    const sent = await rpc(folio, m.send, { message: message(v, { text: "heat pumps" }) }, {
      id: "s-1",
    });
    assert.equal(sent.body.id, "s-1");
    assert.equal(stateOf(sent.body.result), "completed");
    const task = taskOf(sent.body.result);
    const results = task.artifacts[0].parts.find((p: { data?: unknown }) => p.data).data;
    assert.ok(results.count > 0 && results.results[0].url.startsWith("https://demo.localhost/"));
    const got = await rpc(folio, m.get, { id: task.id });
    assert.equal(stateOf(got.body.result), "completed");
    assert.equal(taskOf(got.body.result).id, task.id);
    const cancel = await rpc(folio, m.cancel, { id: task.id });
    assert.equal(cancel.body.error.code, -32002);
    const still = await rpc(folio, m.get, { id: task.id });
    assert.equal(stateOf(still.body.result), "completed");
  });

  Deno.test(`a paywalled read past the meter is auth-required, then canceled, then not cancelable (A2A ${v} names)`, async () => {
    await using folio = await testFolio();
    const paid = await demoIds(folio, "PAYWALL");
    const read = (id: string) =>
      rpc(folio, m.send, {
        message: message(v, { data: { skill: "get_article", url_or_id: id } }),
      });
    for (let i = 0; i < 3; i++) {
      assert.equal(stateOf((await read(paid[i])).body.result), "completed");
    }
    const upsell = await read(paid[3]);
    assert.equal(stateOf(upsell.body.result), "auth-required");
    const data = statusData(upsell.body.result);
    assert.equal(data.status, "payment_required");
    assert.ok((data.price as { usdCents: number }).usdCents > 0);
    assert.match(String(data.signup), /\/api\/marketplace\/signup$/);
    assert.equal(taskOf(upsell.body.result).artifacts?.length ?? 0, 0, "no body is released");
    const id = taskOf(upsell.body.result).id;
    const canceled = await rpc(folio, m.cancel, { id });
    assert.equal(stateOf(canceled.body.result), "canceled");
    assert.equal(stateOf((await rpc(folio, m.get, { id })).body.result), "canceled");
    const again = await rpc(folio, m.cancel, { id });
    assert.equal(again.body.error.code, -32002);
    // A follow-up message to a finished task is refused and changes nothing.
    const follow = await rpc(folio, m.send, {
      message: message(v, { data: { skill: "get_article", url_or_id: paid[3] } }, { taskId: id }),
    });
    assert.ok(follow.body.error, "follow-up to a canceled task is an error");
    const counts = await countA2aTasks(folio.deps.store.db, "pub_demo");
    assert.deepEqual(counts, { completed: 3, canceled: 1 });
  });

  Deno.test(`search counts its articles in the singular for one (A2A ${v})`, async () => {
    await using folio = await testFolio();
    for (const [limit, words] of [[1, "Found 1 article."], [2, "Found 2 articles."]] as const) {
      const r = await rpc(folio, m.send, {
        message: message(v, { data: { skill: "search_articles", query: "energy", limit } }),
      });
      assert.equal(stateOf(r.body.result), "completed");
      assert.ok(
        taskOf(r.body.result).status.message.parts[0].text.startsWith(`${words} Read one`),
        JSON.stringify(taskOf(r.body.result).status),
      );
    }
  });

  Deno.test(`license outcomes become task states an agent can act on (A2A ${v} names)`, async () => {
    await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
    const [free] = await demoIds(folio, "OBSERVE");
    const send = (data: Record<string, unknown>, headers?: Record<string, string>) =>
      post(
        folio,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: m.send,
          params: { message: message(v, { data }) },
        }),
        { headers },
      );
    const full = await send({ skill: "get_article", url_or_id: free, last_user_prompt: "why?" });
    assert.equal(stateOf(full.body.result), "completed");
    const art = taskOf(full.body.result).artifacts[0].parts.find((p: { data?: unknown }) =>
      p.data
    ).data;
    assert.equal(art.license.licensor, "The Demo Ledger");
    assert.ok(art.article.body.length > 100);

    await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, display: false } }));
    const limited = await send({ skill: "get_article", url_or_id: free });
    assert.equal(stateOf(limited.body.result), "completed");
    assert.equal(statusData(limited.body.result).status, "license_limited");
    const limitedText = taskOf(limited.body.result).status.message.parts[0].text;
    assert.match(limitedText, /Cite https:\/\/demo\.localhost\//);
    assert.equal(taskOf(limited.body.result).artifacts[0].parts[0].text.length > 0, true);

    await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, summarization: false } }));
    const denied = await send({ skill: "get_article", url_or_id: free });
    assert.equal(stateOf(denied.body.result), "rejected");
    assert.equal(statusData(denied.body.result).status, "license_denied");
    assert.match(taskOf(denied.body.result).status.message.parts[0].text, /request_license/);
    await patchDemo(
      folio,
      (p) => ({ ...p, rights: { ...p.rights, summarization: true, display: true } }),
    );

    await insertRule(folio.deps.store.db, "pub_demo", {
      id: "rule_fr",
      priority: 1,
      match: { territories: ["FR"] },
      action: { deny: true },
      now: folio.clock.now(),
    });
    const blocked = await send({ skill: "get_article", url_or_id: free }, { "cf-ipcountry": "FR" });
    assert.equal(stateOf(blocked.body.result), "rejected");
    assert.equal(statusData(blocked.body.result).status, "territory_blocked");
    assert.equal(
      stateOf(
        (await send({ skill: "get_article", url_or_id: free }, { "cf-ipcountry": "DE" })).body
          .result,
      ),
      "completed",
    );

    await setArticlePolicy(folio.deps.store.db, "pub_demo", free, {
      policy: "BLOCKED",
      now: folio.clock.now(),
    });
    const off = await send({ skill: "get_article", url_or_id: free });
    assert.equal(stateOf(off.body.result), "rejected");
    assert.equal(statusData(off.body.result).status, "blocked");

    const missing = await send({ skill: "get_article", url_or_id: "a000000000000000" });
    assert.equal(stateOf(missing.body.result), "failed");
    assert.equal(statusData(missing.body.result).status, "article_not_found");
  });
}

Deno.test("batches are refused with one -32600 and run nothing", async () => {
  await using folio = await testFolio();
  const one = {
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: message("0.3", { text: "dams" }) },
  };
  const batch = await post(folio, JSON.stringify([one, { ...one, id: 2 }]));
  assert.equal(batch.status, 200);
  assert.equal(Array.isArray(batch.body), false);
  assert.equal(batch.body.error.code, -32600);
  assert.match(batch.body.error.message, /batch/);
  const empty = await post(folio, "[]");
  assert.equal(empty.body.error.code, -32600);
  assert.deepEqual(await countA2aTasks(folio.deps.store.db, "pub_demo"), {});
});

Deno.test("a body over 1 MiB is refused with 413 and a JSON-RPC error", async () => {
  await using folio = await testFolio();
  const big = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: message("0.3", { text: "x".repeat(1024 * 1024) }) },
  });
  const r = await post(folio, big);
  assert.equal(r.status, 413);
  assert.equal(r.body.error.code, -32600);
  // Just under the limit is read and judged on its content (here: a too-long query).
  const under = JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "message/send",
    params: { message: message("0.3", { text: "x".repeat(1000 * 1000) }) },
  });
  const ok = await post(folio, under);
  assert.equal(ok.status, 200);
  assert.equal(ok.body.error.code, -32602);
});

Deno.test("a notification gets 204 with no body and runs nothing", async () => {
  await using folio = await testFolio();
  const r = await post(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      method: "SendMessage",
      params: { message: message("1.0", { text: "dams" }) },
    }),
  );
  assert.equal(r.status, 204);
  assert.equal(r.body, null);
  assert.deepEqual(await countA2aTasks(folio.deps.store.db, "pub_demo"), {});
});

Deno.test("methods the card does not offer get the A2A error that says so", async () => {
  await using folio = await testFolio();
  const expect: Record<string, number> = {
    "tasks/pushNotificationConfig/set": -32003,
    CreateTaskPushNotificationConfig: -32003,
    GetExtendedAgentCard: -32007,
  };
  for (const [method, code] of Object.entries(expect)) {
    assert.equal((await rpc(folio, method, {})).body.error.code, code, method);
  }
});

Deno.test("each call is logged on the a2a surface: skills by name, protocol calls as _method traces", async () => {
  await using folio = await testFolio();
  const sent = await rpc(folio, "SendMessage", { message: message("1.0", { text: "rivers" }) });
  const id = taskOf(sent.body.result).id;
  await rpc(folio, "tasks/get", { id });
  await rpc(folio, "GetTask", { id: "nope" });
  await rpc(folio, "message/send", {
    message: message("0.3", { data: { skill: "get_article", url_or_id: "a000000000000000" } }),
  });
  await post(folio, "{");
  await folio.deps.callLog.flush();
  const calls = (await recentCalls(folio.deps.store.db, "pub_demo", { limit: 10 })).reverse();
  assert.deepEqual(
    calls.map((c) => [c.surface, c.tool, c.status]),
    [
      ["a2a", "search_articles", "ok"],
      ["a2a", "_method:tasks/get", "trace"],
      ["a2a", "_method:GetTask", "error"],
      ["a2a", "get_article", "ok"],
      ["a2a", "_method:(invalid)", "error"],
    ],
  );
});

function signup(folio: TestFolio) {
  return createBuyer(folio.deps.store.db, { name: "Agent Co", email: "a@agent.example" }, {
    now: folio.clock.now(),
  });
}
