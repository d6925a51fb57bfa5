/**
 * The A2A server's wire, pinned byte for byte: card and endpoint refusals, every JSON-RPC error,
 * every skill input refusal (both protocol versions), and every get_article outcome as a task.
 */
import { message, METHODS } from "../server/surfaces/a2a/_test_utils.ts";
import { setArticlePolicy } from "../store/articles.ts";
import { getPublisher } from "../store/publishers.ts";
import { denyTerritory, outcomeFixture, patchDemo, spendToCap } from "./fixtures/demo.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { type Wire, wire } from "./wire.ts";

const HEADERS = ["www-authenticate", "access-control-allow-origin"];

function post(
  folio: TestFolio,
  body: string,
  init: { host?: string; path?: string } & RequestInit,
) {
  const { path, ...rest } = init;
  return folio.request(path ?? "/a2a", {
    method: "POST",
    host: path ? undefined : "demo.localhost",
    ...rest,
    headers: { "content-type": "application/json", ...rest.headers },
    body,
  });
}

Deno.test("A2A wire: cards, reach and envelope refusals", async (t) => {
  await using folio = await testFolio();
  const table: [string, Wire][] = [];
  const add = async (label: string, res: Promise<Response>) => {
    table.push([label, await wire(await res, HEADERS)]);
  };
  const send = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: message("1.0", { text: "energy" }, { messageId: "m-1" }) },
  });
  // No A2A-Version header: a v0.3 client, the v0.3 card; A2A-Version: 1.0, the v1.0 card.
  await add("card", folio.request("/.well-known/agent-card.json", { host: "demo.localhost" }));
  await add(
    "card v1.0",
    folio.request("/.well-known/agent-card.json", {
      host: "demo.localhost",
      headers: { "A2A-Version": "1.0" },
    }),
  );
  await add("card by slug", folio.request("/.well-known/agent-card.json?slug=demo"));
  await add("card unknown slug", folio.request("/.well-known/agent-card.json?slug=nope"));
  await add("unknown host", post(folio, send, { host: "nobody.localhost" }));
  await add("unknown publisher id", post(folio, send, { path: "/api/a2a/pub_nope" }));
  await add("bad key", post(folio, send, { headers: { authorization: "Bearer mk_nope" } }));
  await add("bad token", post(folio, send, { headers: { authorization: "Bearer fat_nope" } }));
  await add("basic scheme", post(folio, send, { headers: { authorization: "Basic abc" } }));
  await add("too large", post(folio, "x".repeat(1024 * 1024 + 1), {}));
  await add("parse error", post(folio, '{"jsonrpc": "2.0", "id": 1, "method": ', {}));
  await add("batch", post(folio, "[]", {}));
  await add("scalar", post(folio, "42", {}));
  await add(
    "bad id",
    post(folio, JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "x" }), {}),
  );
  await add(
    "version",
    post(folio, JSON.stringify({ jsonrpc: "1.0", id: 7, method: "GetTask" }), {}),
  );
  await add("no method", post(folio, JSON.stringify({ jsonrpc: "2.0", id: 8 }), {}));
  await add(
    "params array",
    post(folio, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "GetTask", params: [] }), {}),
  );
  await add(
    "notification",
    post(folio, JSON.stringify({ jsonrpc: "2.0", method: "SendMessage" }), {}),
  );
  for (
    const method of [
      "nope",
      "ListTasks",
      "message/stream",
      "SubscribeToTask",
      "tasks/pushNotificationConfig/set",
      "GetExtendedAgentCard",
    ]
  ) {
    await add(
      `method ${method}`,
      post(folio, JSON.stringify({ jsonrpc: "2.0", id: 3, method, params: {} }), {}),
    );
  }
  await add(
    "unknown task",
    post(
      folio,
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "GetTask", params: { id: "t-nope" } }),
      {},
    ),
  );
  const p = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
  await patchDemo(folio, (x) => ({ ...x, toggles: { ...p.toggles, requireAuth: true } }));
  await add("auth required", post(folio, send, {}));
  await patchDemo(folio, (x) => ({ ...x, toggles: { ...p.toggles, a2a: false } }));
  await add("A2A off", post(folio, send, {}));
  await add(
    "A2A off, bad key",
    post(folio, send, { headers: { authorization: "Bearer mk_nope" } }),
  );
  await add(
    "card with A2A off",
    folio.request("/.well-known/agent-card.json", { host: "demo.localhost" }),
  );
  await t.assertSnapshot(table);
});

for (const v of ["1.0", "0.3"] as const) {
  Deno.test(`A2A wire: skill input refusals (${v} names)`, async (t) => {
    await using folio = await testFolio();
    const table: [string, Wire][] = [];
    const send = async (label: string, params: unknown) => {
      const res = await post(
        folio,
        JSON.stringify({ jsonrpc: "2.0", id: 5, method: METHODS[v].send, params }),
        {},
      );
      table.push([label, await wire(res)]);
    };
    const m = (content: { text?: string; data?: Record<string, unknown> }) =>
      message(v, content, { messageId: "m-1" });
    await send("params empty", {});
    await send("message not object", { message: "hello" });
    await send("text empty", { message: m({ text: "" }) });
    await send("text too long", { message: m({ text: "x".repeat(201) }) });
    await send("text control", { message: m({ text: "a\u0001b" }) });
    await send("query not string", {
      message: m({ data: { skill: "search_articles", query: 5 } }),
    });
    await send("limit 51", {
      message: m({ data: { skill: "search_articles", query: "q", limit: 51 } }),
    });
    await send("limit zero", {
      message: m({ data: { skill: "search_articles", query: "q", limit: 0 } }),
    });
    await send("limit text", {
      message: m({ data: { skill: "search_articles", query: "q", limit: "5" } }),
    });
    await send("url_or_id missing", { message: m({ data: { skill: "get_article" } }) });
    await send("url_or_id too long", {
      message: m({ data: { skill: "get_article", url_or_id: "x".repeat(2049) } }),
    });
    await send("prompt too long", {
      message: m({
        data: { skill: "get_article", url_or_id: "a", last_user_prompt: "p".repeat(8001) },
      }),
    });
    await send("prompt not string", {
      message: m({ data: { skill: "get_article", url_or_id: "a", last_user_prompt: 5 } }),
    });
    await send("prompt NUL", {
      message: m({ data: { skill: "get_article", url_or_id: "a", last_user_prompt: "a\u0000b" } }),
    });
    await send("extra key", {
      message: m({ data: { skill: "get_article", url_or_id: "a", extra: 1 } }),
    });
    await send("unknown skill", { message: m({ data: { skill: "delete_everything" } }) });
    await send("no messageId", { message: { ...m({ text: "q" }), messageId: undefined } });
    await send("agent role", {
      message: { ...m({ text: "q" }), role: v === "1.0" ? "ROLE_AGENT" : "agent" },
    });
    await send("no parts", { message: { ...m({ text: "q" }), parts: [] } });
    await send("file part", {
      message: { ...m({ text: "q" }), parts: [{ url: "https://example.com/a.pdf" }] },
    });
    await send("two data parts", {
      message: { ...m({}), parts: [{ data: { skill: "get_article" } }, { data: {} }] },
    });
    await t.assertSnapshot(table);
  });
}

Deno.test("A2A wire: every get_article outcome as a task", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const db = folio.deps.store.db;
  const { observe: [observe, observe2, observe3], paywalled, apiKey, buyerId } =
    await outcomeFixture(folio);
  const table: [string, Wire][] = [];
  let n = 0;
  const send = async (label: string, id: string, headers: Record<string, string> = {}) => {
    n++;
    const res = await post(
      folio,
      JSON.stringify({
        jsonrpc: "2.0",
        id: n,
        method: "SendMessage",
        params: {
          message: message("1.0", { data: { skill: "get_article", url_or_id: id } }, {
            messageId: `m-${n}`,
          }),
        },
      }),
      { headers },
    );
    table.push([label, await wire(res)]);
  };
  await send("full", observe);
  await send("charged", paywalled[0], { authorization: `Bearer ${apiKey}` });
  for (const id of paywalled.slice(0, 3)) await send("metered free read", id);
  await send("payment required", paywalled[3]);
  await send("unknown", "nope");
  await setArticlePolicy(db, "pub_demo", observe2, { policy: "BLOCKED", now: folio.clock.now() });
  await send("blocked", observe2);
  await denyTerritory(folio, "FR");
  await send("territory blocked", observe3, { "cf-ipcountry": "FR" });
  await spendToCap(folio, buyerId);
  await send("capped", paywalled[2], { authorization: `Bearer ${apiKey}` });
  const p = (await getPublisher(db, "pub_demo"))!;
  await patchDemo(folio, (x) => ({ ...x, rights: { ...p.rights, display: false } }));
  await send("summary only", observe3);
  await patchDemo(folio, (x) => ({
    ...x,
    rights: { ...p.rights, display: false, summarization: false },
  }));
  await send("denied", observe3);
  n++;
  const legacy = await post(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "message/send",
      params: {
        message: message("0.3", { data: { skill: "get_article", url_or_id: observe3 } }, {
          messageId: `m-${n}`,
        }),
      },
    }),
    {},
  );
  table.push(["denied (0.3)", await wire(legacy)]);
  await t.assertSnapshot(table);
});

Deno.test("A2A wire: streams (both versions), a subscription refused, and a page of ListTasks", async (t) => {
  await using folio = await testFolio();
  const { observe: [observe], apiKey } = await outcomeFixture(folio);
  const table: [string, Wire][] = [];
  const call = async (label: string, method: string, params: unknown, auth?: string) => {
    const res = await post(folio, JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }), {
      headers: { accept: "text/event-stream", ...(auth ? { authorization: auth } : {}) },
    });
    table.push([label, await wire(res, ["cache-control"])]);
  };
  const read = (v: "1.0" | "0.3") =>
    message(v, { data: { skill: "get_article", url_or_id: observe } }, { messageId: `m-${v}` });
  await call(
    "SendStreamingMessage",
    "SendStreamingMessage",
    { message: read("1.0") },
    `Bearer ${apiKey}`,
  );
  await call("message/stream", "message/stream", { message: read("0.3") });
  await call("SubscribeToTask unknown", "SubscribeToTask", { id: "t-nope" });
  await call(
    "ListTasks",
    "ListTasks",
    { pageSize: 5, includeArtifacts: false },
    `Bearer ${apiKey}`,
  );
  await t.assertSnapshot(table);
});
