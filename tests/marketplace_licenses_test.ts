/**
 * The buyer's side of licenses: the license block tells each buyer what it holds on every surface,
 * cancel at period end, and statements (closed months, CSV, approved requests on them).
 */
import assert from "node:assert/strict";
import { message, rpc } from "../server/surfaces/a2a/_test_utils.ts";
import { createLicenseRequest } from "../server/domain/billing/license_requests.ts";
import { grantRequest } from "./offer_helpers.ts";
import { rollMonth } from "../server/domain/billing/subscriptions.ts";
import { getPublisher } from "../store/publishers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { startFakeStripe } from "./billing_fake_stripe.ts";
import { json, startTestFolio, type TestFolio, testFolio } from "./helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";

/** A decoded JSON body, read field by field in assertions. */
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function api(folio: TestFolio, key: string, path: string, body?: unknown) {
  return folio.request(`/api/marketplace${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function approve(
  folio: TestFolio,
  buyerId: string,
  useCase: string,
  terms: { monthlyPriceMicros?: number } = {},
) {
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const { requestId } = await createLicenseRequest(db, {
    publisherId: "pub_demo",
    identity: `buyer:${buyerId}`,
    buyerId,
    useCase,
    message: "Please",
    contact: null,
  }, { now });
  const publisher = (await getPublisher(db, "pub_demo"))!;
  return await grantRequest(db, publisher, { requestId, now, ...terms });
}

Deno.test("an approved fine_tuning request shows as granted to that buyer on REST, MCP and A2A", async () => {
  await using folio = await startTestFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  const auth = { authorization: `Bearer ${apiKey}` };
  const before = await read(folio, apiKey, id, "lb0");
  assert.equal(before.body.license.rights.fine_tuning, "denied");
  await approve(folio, buyerId, "fine_tuning");

  const rest = await read(folio, apiKey, id, "lb1");
  assert.equal(rest.body.license.rights.fine_tuning, "granted");
  const mcp = await mcpTool(folio, "get_article", { url_or_id: id, last_user_prompt: "q" }, auth);
  assert.equal(mcp.structuredContent.license.rights.fine_tuning, "granted");
  const a2a = await rpc(folio, "SendMessage", {
    message: message("1.0", { data: { skill: "get_article", url_or_id: id } }),
  }, { auth: `Bearer ${apiKey}` });
  const artifact = a2a.body.result.task.artifacts[0];
  const data = artifact.parts.find((p: { data?: unknown }) => p.data).data;
  assert.equal(data.license.rights.fine_tuning, "granted");

  // Anonymous callers and other buyers still see the publisher's defaults.
  const anon = await folio.request(`/api/v1/articles/${id}?last_user_prompt=q`, {
    host: "demo.localhost",
  });
  assert.equal((await anon.json()).license.rights.fine_tuning, "denied");
  const other = await signup(folio, 2);
  const theirs = await read(folio, other.apiKey, id, "lb2");
  assert.equal(theirs.body.license.rights.fine_tuning, "denied");
});

Deno.test("a request the publisher approved with a price is billed and on the statement, with its terms", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const { request } = await approve(folio, buyerId, "fine_tuning", {
    monthlyPriceMicros: 250_000_000,
  });
  assert.ok(request.decidedAt);
  const statement = await json<Json>(await api(folio, apiKey, "/statement"));
  assert.equal(statement.state, "open");
  assert.deepEqual(
    statement.lines.map((
      l: Record<string, unknown>,
    ) => [l.kind, l.amountUsdMicros, l.amountUsdCents]),
    // 250 USD a month, accepted Nov 15 12:00 UTC: 1,339,200 of 2,592,000 seconds; printed in cents.
    [["subscription", 129_166_667, 12_917]],
  );
  const licenses = await json<{ licenses: Record<string, unknown>[] }>(
    await api(folio, apiKey, "/licenses"),
  );
  assert.equal(licenses.licenses[0].kind, "request");
  assert.equal(licenses.licenses[0].monthlyFeeUsdCents, 25_000);
});

Deno.test("cancel at period end: rights to the month's end, never billed again, then per-use reads", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  const bought = await json<{ licenseId: string }>(
    await api(folio, apiKey, "/licenses", { publisherId: "pub_demo", useCases: ["display"] }),
  );
  const cancel = await api(folio, apiKey, `/licenses/${bought.licenseId}/cancel`, {});
  assert.equal(cancel.status, 200);
  const canceled = await json<Record<string, unknown>>(cancel);
  assert.equal(canceled.state, "active");
  assert.equal(canceled.cancelsAt, "2026-12-01T00:00:00.000Z");
  assert.equal(canceled.canceledAt, null);
  const again = await json(await api(folio, apiKey, `/licenses/${bought.licenseId}/cancel`, {}));
  assert.deepEqual(again, canceled, "a repeat answers the same");

  // Still licensed in November: no per-use charge.
  const november = await read(folio, apiKey, id, "n1");
  assert.ok(november.body.article.body);
  assert.equal(november.headers.get("folio-charged-usd-cents"), null);

  folio.clock.set(new Date("2026-12-01T00:00:01Z"));
  assert.equal(await rollMonth(db, { month: "2026-12", now: folio.clock.now() }), 0, "no renewal");
  const list = await json<{ licenses: Record<string, unknown>[] }>(
    await api(folio, apiKey, "/licenses"),
  );
  assert.equal(list.licenses[0].state, "canceled");
  assert.equal(list.licenses[0].canceledAt, "2026-12-01T00:00:00.000Z");
  assert.equal(list.licenses[0].cancelsAt, null);
  const december = await read(folio, apiKey, id, "d1");
  assert.ok(december.headers.get("folio-charged-usd-cents"), "now charged per use");
  const gone = await api(folio, apiKey, `/licenses/${bought.licenseId}/cancel`, {});
  assert.equal(gone.status, 409);
  await gone.body?.cancel();
  const rs = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ? AND kind = 'subscription'",
    args: [buyerId],
  });
  assert.equal(Number(rs.rows[0].n), 1, "November's fee only");
});

Deno.test("cancel refuses what is not the buyer's, and a second cancel of a canceled license", async () => {
  await using folio = await testFolio();
  const a = await signup(folio, "a");
  const b = await signup(folio, "b");
  const bought = await json<{ licenseId: string }>(
    await api(folio, a.apiKey, "/licenses", { publisherId: "pub_demo", useCases: ["rag"] }),
  );
  const theirs = await api(folio, b.apiKey, `/licenses/${bought.licenseId}/cancel`, {});
  assert.equal(theirs.status, 404, "another buyer's license is not found");
  await theirs.body?.cancel();
  const unknown = await api(folio, a.apiKey, "/licenses/lic_nope/cancel", {});
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  const anon = await folio.request(`/api/marketplace/licenses/${bought.licenseId}/cancel`, {
    method: "POST",
  });
  assert.equal(anon.status, 401);
  await anon.body?.cancel();
  const list = await json<{ licenses: Record<string, unknown>[] }>(
    await api(folio, a.apiKey, "/licenses"),
  );
  assert.equal(list.licenses[0].cancelsAt, null, "nothing changed");
});

Deno.test("with a processor: a pending checkout cancels at once; a paid one tells the processor", async () => {
  await using stripe = startFakeStripe();
  await using folio = await startTestFolio({ env: stripe.env() });
  const { apiKey } = await signup(folio);
  const pending = await json<{ licenseId: string; checkoutUrl: string }>(
    await api(folio, apiKey, "/licenses", { publisherId: "pub_demo", useCases: ["display"] }),
  );
  const dropped = await json<Record<string, unknown>>(
    await api(folio, apiKey, `/licenses/${pending.licenseId}/cancel`, {}),
  );
  assert.equal(dropped.state, "canceled");
  assert.ok(dropped.canceledAt);

  const paid = await json<{ licenseId: string; checkoutUrl: string }>(
    await api(folio, apiKey, "/licenses", { publisherId: "pub_demo", useCases: ["rag"] }),
  );
  const sessionId = paid.checkoutUrl.split("/").pop()!;
  stripe.complete(sessionId);
  const done = await folio.request(`/api/marketplace/checkout/success?session_id=${sessionId}`);
  assert.equal(done.status, 200);
  await done.body?.cancel();
  const ended = await json<Record<string, unknown>>(
    await api(folio, apiKey, `/licenses/${paid.licenseId}/cancel`, {}),
  );
  assert.equal(ended.state, "active");
  assert.equal(ended.cancelsAt, "2026-12-01T00:00:00.000Z");
  const call = stripe.requests.find((r) => r.path === `/v1/subscriptions/sub_${sessionId}`);
  assert.equal(call?.form.get("cancel_at_period_end"), "true");
});

Deno.test("statements: a finished empty month is closed; the CSV downloads with its total", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  await read(folio, apiKey, id, "s1");
  const past = await json<Record<string, unknown>>(
    await api(folio, apiKey, "/statement?month=2026-10"),
  );
  assert.equal(past.state, "closed");
  assert.equal(past.closedAt, "2026-11-01T00:00:00.000Z");
  const current = await json<Record<string, unknown>>(await api(folio, apiKey, "/statement"));
  assert.equal(current.state, "open");
  const csv = await api(folio, apiKey, "/statement/csv?month=2026-11");
  assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.match(
    csv.headers.get("content-disposition")!,
    /attachment; filename="folio-statement-2026-11.csv"/,
  );
  const text = await csv.text();
  const lines = text.trim().split("\r\n");
  assert.equal(
    lines[0],
    '"month","publisher","kind","description","quantity","price_usd_micros",' +
      '"fee_usd_micros","amount_usd_micros"',
  );
  assert.match(lines[1], /^"2026-11","The Demo Ledger","metered","Metered reads","1",/);
  assert.match(
    lines.at(-1)!,
    /^"2026-11","","total","Total, invoiced as \d+\.\d\d USD \(rounded once to the cent\)","1",/,
  );
  const bad = await api(folio, apiKey, "/statement/csv?month=2026-13");
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
});
