/**
 * Offers the buyer accepts (issue 29 item 2), end to end over the APIs: the buyer asks with a
 * maximum, the publisher approves with an offer, the buyer accepts (billed once, prorated, within
 * its budgets) or declines, offers expire by the clock, and every bad input is a clear error that
 * changes nothing. The agent that asked follows along with MCP's license_request_status.
 */
import assert from "node:assert/strict";
import { signup } from "./billing_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";
import { signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

async function call(folio: TestFolio, key: string, method: string, path: string, body?: unknown) {
  const res = await folio.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await json<Body>(res) };
}

const market = (folio: TestFolio, key: string, method: string, path: string, body?: unknown) =>
  call(folio, key, method, `/api/marketplace${path}`, body);
const publisher = (folio: TestFolio, method: string, path: string, body?: unknown) =>
  call(folio, folio.seeded!.apiKey, method, `/api/publisher${path}`, body);

/** A buyer's request to the demo publisher, with the most it will pay. */
async function ask(folio: TestFolio, key: string, extra: Body = {}) {
  const r = await market(folio, key, "POST", "/license-requests", {
    publisherId: "pub_demo",
    useCase: "fine_tuning",
    message: "We train a small model on your archive",
    maxMonthlyUsdCents: 30_000,
    ...extra,
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.requestId as string;
}

async function ledger(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT kind, price_micros, month FROM charges WHERE buyer_id = ? ORDER BY created_at",
    args: [buyerId],
  });
  return rs.rows.map((r) => [r.kind, Number(r.price_micros), r.month]);
}

async function counts(folio: TestFolio) {
  const n = async (sql: string) => Number((await folio.deps.store.db.execute(sql)).rows[0].n);
  return {
    licenses: await n("SELECT COUNT(*) AS n FROM licenses"),
    charges: await n("SELECT COUNT(*) AS n FROM charges"),
    open: await n("SELECT COUNT(*) AS n FROM license_offers WHERE state = 'open'"),
  };
}

Deno.test("approve makes an offer; the buyer accepts it once, billed the prorated month within budget", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const requestId = await ask(folio, apiKey);

  // Above the buyer's maximum: refused, nothing changes.
  const tooMuch = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 30_001,
  });
  assert.equal(tooMuch.status, 400);
  assert.equal(tooMuch.body.error.param, "monthlyPriceUsdCents");
  assert.match(tooMuch.body.error.message, /at most 30000 cents a month/);
  assert.deepEqual(await counts(folio), { licenses: 0, charges: 0, open: 0 });

  const approved = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 30_000,
    note: "Attribution required",
  });
  assert.equal(approved.status, 200, JSON.stringify(approved.body));
  const offerId = approved.body.offer.id;
  assert.deepEqual(await counts(folio), { licenses: 0, charges: 0, open: 1 }, "nothing billed");

  const offers = await market(folio, apiKey, "GET", "/offers");
  assert.equal(offers.body.offers.length, 1);
  const offer = offers.body.offers[0];
  assert.deepEqual(
    [offer.offerId, offer.state, offer.monthlyPriceUsdCents, offer.note, offer.publisherName],
    [offerId, "open", 30_000, "Attribution required", "The Demo Ledger"],
  );
  // 300 USD × 1,339,200 s left of November's 2,592,000 s = 155 USD.
  assert.deepEqual(offer.acceptNow, {
    firstChargeUsdCents: 15_500,
    periodEnd: "2026-12-01T00:00:00.000Z",
    quotedAt: "2026-11-15T12:00:00.000Z",
  });
  const mine = await market(folio, apiKey, "GET", "/license-requests");
  assert.equal(mine.body.requests[0].state, "offered");
  assert.equal(mine.body.requests[0].maxMonthlyUsdCents, 30_000);

  // A budget the charge would exceed refuses the acceptance, and nothing changes.
  await market(folio, apiKey, "PUT", "/budgets", { monthlyUsdCents: 10_000 });
  const over = await market(folio, apiKey, "POST", `/offers/${offerId}/accept`);
  assert.equal(over.status, 409);
  assert.equal(over.body.error.code, "budget_exceeded");
  assert.match(over.body.error.message, /155\.00 USD would exceed your overall budget/);
  assert.deepEqual(await counts(folio), { licenses: 0, charges: 0, open: 1 });

  await market(folio, apiKey, "PUT", "/budgets", { monthlyUsdCents: 20_000 });
  const accepted = await market(folio, apiKey, "POST", `/offers/${offerId}/accept`);
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.equal(accepted.body.offer.state, "accepted");
  assert.deepEqual(accepted.body.charged, {
    firstChargeUsdCents: 15_500,
    periodEnd: "2026-12-01T00:00:00.000Z",
    renewsAt: "2026-12-01T00:00:00.000Z",
  });
  assert.deepEqual(accepted.body.license.useCases, ["fine_tuning"]);
  assert.deepEqual(await ledger(folio, buyerId), [["subscription", 155_000_000, "2026-11"]]);

  // The fee counts against the budget: 45 USD of the 200 USD are left.
  const budgets = await market(folio, apiKey, "GET", "/budgets");
  assert.deepEqual(
    [budgets.body.overall.spentUsdCents, budgets.body.overall.remainingUsdCents],
    [15_500, 4_500],
  );

  // Accepting again, or declining now, is 409 and bills nothing more.
  const again = await market(folio, apiKey, "POST", `/offers/${offerId}/accept`);
  assert.deepEqual([again.status, again.body.error.code], [409, "offer_accepted"]);
  const late = await market(folio, apiKey, "POST", `/offers/${offerId}/decline`, {});
  assert.deepEqual([late.status, late.body.error.code], [409, "offer_accepted"]);
  assert.equal((await ledger(folio, buyerId)).length, 1);

  // The statement shows the prorated fee exactly.
  const statement = await market(folio, apiKey, "GET", "/statement");
  assert.deepEqual(
    statement.body.lines.map((l: Body) => [l.kind, l.amountUsdCents]),
    [["subscription", 15_500]],
  );
  const publisherView = await publisher(folio, "GET", "/license-requests");
  assert.equal(publisherView.body.requests[0].offer.state, "accepted");
  assert.equal(publisherView.body.requests[0].licenseId, accepted.body.license.licenseId);
});

Deno.test("another buyer's offer is not found; offers on another publisher's request are 404", async () => {
  await using folio = await testFolio();
  const a = await signup(folio, "a");
  const b = await signup(folio, "b");
  const requestId = await ask(folio, a.apiKey);
  const approved = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {});
  const offerId = approved.body.offer.id;
  for (
    const [method, path] of [
      ["GET", `/offers/${offerId}`],
      ["POST", `/offers/${offerId}/accept`],
      ["POST", `/offers/${offerId}/decline`],
    ]
  ) {
    const r = await market(folio, b.apiKey, method, path, method === "POST" ? {} : undefined);
    assert.equal(r.status, 404, path);
    assert.equal(r.body.error.code, "not_found");
  }
  assert.deepEqual((await market(folio, b.apiKey, "GET", "/offers")).body.offers, []);

  const { apiKey } = await signUp(folio);
  const second = await ask(folio, a.apiKey, { useCase: "rag" });
  const theirs = await call(
    folio,
    apiKey,
    "POST",
    `/api/publisher/license-requests/${second}/approve`,
    {},
  );
  assert.equal(theirs.status, 404);
  assert.deepEqual(await counts(folio), { licenses: 0, charges: 0, open: 1 });
});

Deno.test("a declined offer keeps the reason and bills nothing; it cannot be accepted after", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const requestId = await ask(folio, apiKey);
  const approved = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 20_000,
  });
  const offerId = approved.body.offer.id;
  const tooLong = await market(folio, apiKey, "POST", `/offers/${offerId}/decline`, {
    reason: "x".repeat(1001),
  });
  assert.deepEqual([tooLong.status, tooLong.body.error.param], [400, "reason"]);
  const unknown = await market(folio, apiKey, "POST", "/offers/ofr_nope/accept");
  assert.deepEqual([unknown.status, unknown.body.error.code], [404, "not_found"]);
  assert.equal((await market(folio, apiKey, "GET", `/offers/${offerId}`)).body.state, "open");
  const declined = await market(folio, apiKey, "POST", `/offers/${offerId}/decline`, {
    reason: "Too expensive for us",
  });
  assert.equal(declined.status, 200);
  assert.deepEqual([declined.body.state, declined.body.declineReason], [
    "declined",
    "Too expensive for us",
  ]);
  const accept = await market(folio, apiKey, "POST", `/offers/${offerId}/accept`);
  assert.deepEqual([accept.status, accept.body.error.code], [409, "offer_declined"]);
  assert.deepEqual(await ledger(folio, buyerId), []);
  const seen = await publisher(folio, "GET", "/license-requests");
  assert.deepEqual(
    [seen.body.requests[0].offer.state, seen.body.requests[0].offer.declineReason],
    ["declined", "Too expensive for us"],
  );
});

Deno.test("an offer expires by the clock: shown expired, accepting it is 409 and bills nothing", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const requestId = await ask(folio, apiKey);
  const approved = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 10_000,
    expiresInDays: 2,
  });
  const offerId = approved.body.offer.id;
  assert.equal(approved.body.offer.expiresAt, "2026-11-17T12:00:00.000Z");
  folio.clock.set("2026-11-17T12:00:00Z");
  const listed = await market(folio, apiKey, "GET", `/offers/${offerId}`);
  assert.deepEqual([listed.body.state, listed.body.acceptNow], ["expired", null]);
  const accept = await market(folio, apiKey, "POST", `/offers/${offerId}/accept`);
  assert.deepEqual([accept.status, accept.body.error.code], [409, "offer_expired"]);
  assert.match(accept.body.error.message, /already expired \(2026-11-17T12:00:00\.000Z\)/);
  assert.deepEqual(await ledger(folio, buyerId), []);
  const mine = await market(folio, apiKey, "GET", "/license-requests");
  assert.equal(mine.body.requests[0].state, "expired");
  assert.match(mine.body.requests[0].summary, /expired at 2026-11-17T12:00:00\.000Z/);
  const row = await folio.deps.store.db.execute("SELECT state FROM license_offers");
  assert.equal(row.rows[0].state, "expired", "the expiry is recorded once it is met");
});

Deno.test("a denial reaches the buyer and the agent with the publisher's reason; MCP follows an offer", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  const auth = { authorization: `Bearer ${apiKey}` };
  const asked = await mcpTool(folio, "request_license", {
    use_case: "display",
    message: "Display for our readers",
    max_monthly_usd: 99.5,
  }, auth);
  const requestId = asked.structuredContent.requestId;
  const pending = await mcpTool(folio, "license_request_status", { request_id: requestId }, auth);
  assert.equal(pending.structuredContent.requests[0].state, "pending");
  assert.equal(pending.structuredContent.requests[0].maxMonthlyUsdCents, 9_950);

  const over = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 9_951,
  });
  assert.equal(over.status, 400);
  await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 9_000,
    termMonths: 2,
  });
  const offered = await mcpTool(folio, "license_request_status", {}, auth);
  const r = offered.structuredContent.requests[0];
  assert.equal(r.state, "offered");
  assert.equal(r.offer.monthlyPriceUsdCents, 9_000);
  assert.match(offered.content[0].text, /offers display for 90\.00 USD a month for 2 months/);
  assert.match(offered.content[0].text, /Nothing is billed until the buyer accepts/);

  folio.clock.advance(60_000);
  const second = await mcpTool(folio, "request_license", {
    use_case: "rag",
    message: "RAG please",
  }, auth);
  await publisher(folio, "POST", `/license-requests/${second.structuredContent.requestId}/deny`, {
    reason: "We do not license RAG yet",
  });
  const denied = await mcpTool(folio, "license_request_status", {
    request_id: second.structuredContent.requestId,
  }, auth);
  assert.equal(denied.structuredContent.requests[0].state, "denied");
  assert.equal(denied.structuredContent.requests[0].reason, "We do not license RAG yet");
  assert.match(denied.content[0].text, /denied the request: We do not license RAG yet/);
  const mine = await market(folio, apiKey, "GET", "/license-requests");
  assert.deepEqual(mine.body.requests.map((x: Body) => [x.state, x.reason]), [
    ["denied", "We do not license RAG yet"],
    ["offered", null],
  ]);

  // Another identity learns nothing about the request.
  const other = await signup(folio, 2);
  const hidden = await mcpTool(folio, "license_request_status", { request_id: requestId }, {
    authorization: `Bearer ${other.apiKey}`,
  });
  assert.equal(hidden.isError, true);
  const bad = await mcpTool(folio, "request_license", {
    use_case: "rag",
    message: "x",
    max_monthly_usd: -1,
  }, auth);
  assert.equal(bad.isError, true);
});

Deno.test("cancel states its effect before and after: access to the period's end, no credit, no renewal", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  const bought = await market(folio, apiKey, "POST", "/licenses", {
    publisherId: "pub_demo",
    useCases: ["display"],
  });
  assert.equal(bought.status, 201);
  // 100 USD a month from Nov 15 12:00 UTC: 51.666667 USD for the rest of November.
  assert.deepEqual([bought.body.firstChargeUsdCents, bought.body.renewsAt], [
    5_166.6667,
    "2026-12-01T00:00:00.000Z",
  ]);
  const id = bought.body.licenseId;
  const preview = await market(folio, apiKey, "GET", `/licenses/${id}/cancel`);
  assert.equal(preview.status, 200);
  assert.equal(preview.body.renewsAt, "2026-12-01T00:00:00.000Z");
  assert.equal(preview.body.cancelsAt, null, "the preview changes nothing");
  const effect = {
    mode: "period_end",
    accessUntil: "2026-12-01T00:00:00.000Z",
    creditUsdCents: 0,
    chargedUsdCents: 0,
    forgoneRenewalUsdCents: 10_000,
  };
  assert.deepEqual({ ...preview.body.effect, summary: undefined }, {
    ...effect,
    summary: undefined,
  });
  assert.match(preview.body.effect.summary, /keeps its uses until 2026-12-01T00:00:00\.000Z/);
  assert.match(preview.body.effect.summary, /renewal of 100\.00 USD on 2026-12-01/);
  const done = await market(folio, apiKey, "POST", `/licenses/${id}/cancel`, {});
  assert.equal(done.status, 200);
  assert.deepEqual([done.body.cancelsAt, done.body.renewsAt], ["2026-12-01T00:00:00.000Z", null]);
  assert.deepEqual({ ...done.body.effect, summary: undefined }, { ...effect, summary: undefined });
  const unknown = await market(folio, apiKey, "GET", "/licenses/lic_nope/cancel");
  assert.equal(unknown.status, 404);
});

Deno.test("five accepts at once bill one charge; a subscription past the budget is refused too", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const requestId = await ask(folio, apiKey);
  const approved = await publisher(folio, "POST", `/license-requests/${requestId}/approve`, {
    monthlyPriceUsdCents: 10_000,
  });
  const offerId = approved.body.offer.id;
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => market(folio, apiKey, "POST", `/offers/${offerId}/accept`)),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409]);
  assert.deepEqual(await ledger(folio, buyerId), [["subscription", 51_666_667, "2026-11"]]);

  // 51.67 USD of a 100 USD budget is spent: a 100 USD/month display license (51.67 USD now) is not.
  await market(folio, apiKey, "PUT", "/budgets", { monthlyUsdCents: 10_000 });
  const refused = await market(folio, apiKey, "POST", "/licenses", {
    publisherId: "pub_demo",
    useCases: ["display"],
  });
  assert.deepEqual([refused.status, refused.body.error.code], [409, "budget_exceeded"]);
  assert.match(refused.body.error.message, /Nothing was charged/);
  assert.equal((await ledger(folio, buyerId)).length, 1);
  assert.equal((await market(folio, apiKey, "GET", "/licenses")).body.licenses.length, 1);
});
