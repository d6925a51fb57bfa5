/** The dashboard's passages playground: retrieve_passages as a buyer sees it, never charged. */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, logIn, sendJson, signUp } from "./manage_helpers.ts";
import { callLogRows } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const QUERY = "sourdough microbes bread";

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

async function playground(folio: TestFolio, body: unknown, headers = demoKey(folio)) {
  const res = await sendJson(folio, "POST", "/api/publisher/playground/passages", body, headers);
  const answer = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(answer));
  return answer;
}

async function ledger(folio: TestFolio): Promise<number[]> {
  const rs = await folio.store.db.execute(
    `SELECT (SELECT COUNT(*) FROM charges), (SELECT COUNT(*) FROM meter_reads),
            (SELECT COUNT(*) FROM meters), (SELECT COUNT(*) FROM reader_intents)`,
  );
  return Object.values(rs.rows[0]).map(Number);
}

Deno.test("the playground answers what a buyer's retrieve_passages answers, and records nothing", async () => {
  await using folio = await testFolio();
  const tried = await playground(folio, { query: QUERY, limit: 5 });
  assert.ok(tried.count > 0);
  assert.equal(tried.count, tried.results.length);
  assert.deepEqual(await ledger(folio), [0, 0, 0, 0], "no charge, meter read or intent");

  // A real buyer asking the same over REST gets the same passages (and pays for them).
  const { apiKey } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const res = await folio.request(
    `/api/v1/passages/search?q=${encodeURIComponent(QUERY)}&limit=5`,
    { host: "demo.localhost", headers: { authorization: `Bearer ${apiKey}` } },
  );
  const bought = await json<Body>(res);
  assert.deepEqual(
    tried.results.map(({ wouldChargeUsdCents: _, ...r }: Body) => r),
    bought.results,
  );
  assert.ok(tried.results.every((r: Body) => r.wouldChargeUsdCents === 0), "OBSERVE is free");
});

Deno.test("the playground says what a paywalled passage would cost a buyer, without charging", async () => {
  await using folio = await testFolio();
  const first = (await playground(folio, { query: QUERY })).results[0];
  const patch = await sendJson(folio, "PATCH", `/api/publisher/articles/${first.article.id}`, {
    policy: "PAYWALL",
  }, demoKey(folio));
  assert.equal(patch.status, 200);
  await patch.body?.cancel();
  const again = (await playground(folio, { query: QUERY })).results
    .find((r: Body) => r.article.id === first.article.id);
  assert.equal(again.wouldChargeUsdCents, 0.5, "the demo's rag price");
  assert.equal(again.license.pricingUsdCents.rag, 0.5);
  assert.deepEqual(await ledger(folio), [0, 0, 0, 0]);

  // With rag denied a buyer gets nothing, and so does the playground.
  await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, rag: false } }));
  assert.deepEqual(await playground(folio, { query: QUERY }), { count: 0, results: [] });
});

Deno.test("playground calls are logged as _dash:retrieve_passages, made by the publisher", async () => {
  await using folio = await testFolio();
  await playground(folio, { query: QUERY });
  await assertInvalid(
    await sendJson(
      folio,
      "POST",
      "/api/publisher/playground/passages",
      { query: "" },
      demoKey(folio),
    ),
    "query: must not be empty",
  );
  const rows = (await callLogRows(folio)).filter((r) => r.tool.startsWith("_dash:"));
  assert.deepEqual(rows, [
    {
      tool: "_dash:retrieve_passages",
      status: "ok",
      httpStatus: 200,
      identity: "publisher:pub_demo",
    },
    {
      tool: "_dash:retrieve_passages",
      status: "error",
      httpStatus: 400,
      identity: "publisher:pub_demo",
    },
  ]);
  const { calls } = await json<Body>(
    await folio.request("/api/publisher/calls", { headers: demoKey(folio) }),
  );
  assert.deepEqual(
    calls.slice(0, 2).map((c: Body) => [c.surface, c.tool, c.status, c.caller]),
    [
      ["dashboard", "_dash:retrieve_passages", "error", { kind: "publisher" }],
      ["dashboard", "_dash:retrieve_passages", "ok", { kind: "publisher" }],
    ],
  );
});

Deno.test("the playground refuses bad input with the field and the reason", async () => {
  await using folio = await testFolio();
  const post = (body: unknown) =>
    sendJson(folio, "POST", "/api/publisher/playground/passages", body, demoKey(folio));
  const cases: [unknown, string][] = [
    [{}, "query: is required, 1 to 200 characters"],
    [{ query: "x".repeat(201) }, "query: must be at most 200 characters"],
    [{ query: "ok", limit: 0 }, 'limit: must be a whole number from 1 to 50, got "0"'],
    [{ query: "ok", limit: 51 }, 'limit: must be a whole number from 1 to 50, got "51"'],
    [{ query: "ok", limit: "5" }, 'limit: must be a whole number from 1 to 50, got "5"'],
    [{ query: "ok", last_user_prompt: "x" }, "last_user_prompt: is not a known field"],
    ["[]", "body: must be a JSON object"],
  ];
  for (const [body, message] of cases) await assertInvalid(await post(body), message);
  const text = await folio.request("/api/publisher/playground/passages", {
    method: "POST",
    headers: { ...demoKey(folio), "content-type": "text/plain" },
    body: "sourdough",
  });
  assert.equal(text.status, 415);
  await text.body?.cancel();
  assert.deepEqual(await ledger(folio), [0, 0, 0, 0]);
});

Deno.test("the playground searches the caller's own catalog, and a cookie needs the CSRF token", async () => {
  await using folio = await testFolio();
  const other = await signUp(folio);
  assert.deepEqual(await playground(folio, { query: QUERY }, bearer(other.apiKey)), {
    count: 0,
    results: [],
  });
  const { cookie, csrfToken } = await logIn(folio, other.email);
  const refused = await sendJson(folio, "POST", "/api/publisher/playground/passages", {
    query: QUERY,
  }, { cookie });
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const ok = await playground(folio, { query: QUERY }, { cookie, "x-csrf-token": csrfToken });
  assert.equal(ok.count, 0);
  const anonymous = await sendJson(folio, "POST", "/api/publisher/playground/passages", {
    query: QUERY,
  });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});
