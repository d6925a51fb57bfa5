/**
 * License requests in the management API: approve with a monthly price and a term, deny with a
 * reason, and a listing that says who asked, what, and what was decided.
 */
import assert from "node:assert/strict";
import { createLicenseRequest } from "../server/domain/billing/license_requests.ts";
import { rollMonth } from "../server/domain/billing/subscriptions.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { heldUseCases } from "../store/licenses.ts";
import { demoIds, patchDemo } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, logIn, sendJson, signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

function demoKey(folio: TestFolio): Record<string, string> {
  return bearer(folio.seeded!.apiKey);
}

/** A buyer and one pending request of theirs to the demo publisher. */
async function pending(folio: TestFolio, useCase = "fine_tuning", enterprise = false) {
  const { buyerId, apiKey } = await createBuyer(folio.store.db, {
    name: "Acme AI",
    email: `ml-${crypto.randomUUID().slice(0, 6)}@acme.test`,
  }, { now: folio.clock.now() });
  const { requestId } = await createLicenseRequest(folio.store.db, {
    publisherId: "pub_demo",
    identity: `buyer:${buyerId}`,
    buyerId,
    useCase,
    message: "We would like to train on your archive",
    contact: "ml@acme.test",
    enterprise,
  }, { now: folio.clock.now() });
  return { buyerId, apiKey, requestId };
}

function decide(
  folio: TestFolio,
  requestId: string,
  action: "approve" | "deny",
  body?: unknown,
  headers = demoKey(folio),
) {
  return sendJson(
    folio,
    "POST",
    `/api/publisher/license-requests/${requestId}/${action}`,
    body,
    headers,
  );
}

async function listed(folio: TestFolio, key = demoKey(folio)): Promise<Body[]> {
  const res = await folio.request("/api/publisher/license-requests", { headers: key });
  assert.equal(res.status, 200);
  return (await json<Body>(res)).requests;
}

/** The buyer accepts the offer an approval answered with; returns the accept answer. */
async function accept(folio: TestFolio, apiKey: string, approval: Body): Promise<Body> {
  const res = await sendJson(
    folio,
    "POST",
    `/api/marketplace/offers/${approval.offer.id}/accept`,
    undefined,
    bearer(apiKey),
  );
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

async function licenseCount(folio: TestFolio): Promise<number> {
  return Number((await folio.store.db.execute("SELECT COUNT(*) AS n FROM licenses")).rows[0].n);
}

Deno.test("approving with a monthly price and a term offers both; accepting makes the license", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey, requestId } = await pending(folio);
  const res = await decide(folio, requestId, "approve", {
    monthlyPriceUsdCents: 5000,
    termMonths: 3,
    note: "Attribution, please",
  });
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  const now = folio.clock.now().toISOString();
  assert.deepEqual(body.offer, {
    id: body.offer.id,
    kind: "request",
    useCases: ["fine_tuning"],
    monthlyPriceUsdCents: 5000,
    termMonths: 3,
    note: "Attribution, please",
    state: "open",
    // Open for 14 days by default.
    expiresAt: "2026-11-29T12:00:00.000Z",
    decidedAt: null,
    licenseId: null,
    declineReason: null,
  });
  const request = body.request;
  assert.equal(request.state, "approved");
  assert.equal(request.decidedAt, now);
  assert.equal(request.licenseId, null, "no license before the buyer accepts");
  assert.deepEqual(
    [request.monthlyPriceUsdCents, request.termMonths, request.reason],
    [5000, 3, null],
  );
  assert.deepEqual(request.requester, { kind: "buyer", buyerId, name: "Acme AI" });
  assert.equal(request.buyerName, "Acme AI");
  assert.deepEqual(request.rightsAsked, ["fine_tuning"]);
  assert.equal("priceMicros" in request, false);
  assert.deepEqual((await listed(folio))[0], request);
  assert.equal(await licenseCount(folio), 0, "nothing billed or granted before acceptance");

  const accepted = await accept(folio, apiKey, body);
  assert.deepEqual(
    [accepted.license.kind, accepted.license.expiresAt, accepted.license.renewsAt],
    // November, December, January: the license ends as February begins.
    ["request", "2027-02-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"],
  );
  const [after] = await listed(folio);
  assert.equal(after.licenseId, accepted.license.licenseId);
  assert.equal(after.offer.state, "accepted");

  // The rest of November prorated (15.5 of 30 days), then renewed inside the term only.
  const db = folio.store.db;
  const charged = async () =>
    (await db.execute({
      sql: "SELECT month, price_micros FROM charges WHERE buyer_id = ? ORDER BY month",
      args: [buyerId],
    })).rows.map((r) => [r.month, Number(r.price_micros)]);
  assert.deepEqual(await charged(), [["2026-11", 25_833_333]]);
  for (const month of ["2026-12", "2027-01", "2027-02", "2027-03"]) {
    await rollMonth(db, { month, now: folio.clock.now() });
  }
  assert.deepEqual(await charged(), [
    ["2026-11", 25_833_333],
    ["2026-12", 50_000_000],
    ["2027-01", 50_000_000],
  ]);
  const held = (at: string) => heldUseCases(db, buyerId, "pub_demo", { now: new Date(at) });
  assert.deepEqual(await held("2027-01-31T23:59:59Z"), ["fine_tuning"]);
  assert.deepEqual(await held("2027-02-01T00:00:00Z"), []);

  // Decided once: a second decision is 409 and changes nothing.
  for (const action of ["approve", "deny"] as const) {
    const again = await decide(folio, requestId, action, {});
    assert.equal(again.status, 409);
    assert.equal((await json<Body>(again)).error.code, "already_decided");
  }
  assert.equal(await licenseCount(folio), 1);
});

Deno.test("a license approved for a term stops covering reads when the term ends", async () => {
  await using folio = await testFolio();
  const { requestId, apiKey } = await pending(folio, "display");
  const res = await decide(folio, requestId, "approve", { termMonths: 1 });
  assert.equal(res.status, 200);
  const { license } = await accept(folio, apiKey, await json<Body>(res));
  assert.deepEqual([license.monthlyFeeUsdCents, license.expiresAt, license.renewsAt], [
    0,
    "2026-12-01T00:00:00.000Z",
    null,
  ]);
  const [paid] = await demoIds(folio, "PAYWALL");
  const read = async () => {
    const r = await folio.request(`/api/v1/articles/${paid}?last_user_prompt=q`, {
      host: "demo.localhost",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    await r.body?.cancel();
    return r.headers.get("folio-charged-usd-cents");
  };
  assert.equal(await read(), null, "covered by the license: not charged");
  folio.clock.set("2026-12-01T00:00:00Z");
  assert.ok(Number(await read()) > 0, "after the term the read is charged per use");
  const licenses = await json<Body>(
    await folio.request("/api/marketplace/licenses", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  assert.deepEqual(
    [licenses.licenses[0].state, licenses.licenses[0].expiresAt],
    ["expired", "2026-12-01T00:00:00.000Z"],
  );
});

Deno.test("approving without a body keeps the defaults; an enterprise price can be set", async () => {
  await using folio = await testFolio();
  const plain = await pending(folio, "rag");
  const res = await folio.request(`/api/publisher/license-requests/${plain.requestId}/approve`, {
    method: "POST",
    headers: demoKey(folio),
  });
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(
    [body.offer.monthlyPriceUsdCents, body.offer.termMonths, body.offer.note],
    [0, null, null],
  );
  assert.deepEqual([body.request.monthlyPriceUsdCents, body.request.termMonths], [0, null]);

  await patchDemo(folio, (p) => ({
    ...p,
    enterpriseTerms: {
      useCases: ["display", "rag"],
      monthlyPriceMicros: 2_500_000_000,
      conditions: "Attribution",
    },
  }));
  const big = await pending(folio, "fine_tuning", true);
  const [request] = (await listed(folio)).filter((r) => r.id === big.requestId);
  assert.deepEqual(request.rightsAsked, ["display", "rag", "fine_tuning"]);
  assert.deepEqual(
    [request.state, request.decidedAt, request.monthlyPriceUsdCents],
    ["pending", null, null],
  );
  const approved = await json<Body>(
    await decide(folio, big.requestId, "approve", { monthlyPriceUsdCents: 100_000 }),
  );
  assert.equal(approved.offer.kind, "enterprise");
  assert.equal(approved.offer.monthlyPriceUsdCents, 100_000);
  const { license } = await accept(folio, big.apiKey, approved);
  const rs = await folio.store.db.execute({
    sql: "SELECT monthly_fee_micros, terms FROM licenses WHERE id = ?",
    args: [license.licenseId],
  });
  assert.equal(Number(rs.rows[0].monthly_fee_micros), 1_000_000_000);
  assert.equal(JSON.parse(String(rs.rows[0].terms)).monthlyPriceMicros, 1_000_000_000);
});

Deno.test("denying records the reason and the time; the listing shows them", async () => {
  await using folio = await testFolio();
  const first = await pending(folio);
  const res = await decide(folio, first.requestId, "deny", { reason: "  Not for training.  " });
  const body = await json<Body>(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(
    [body.request.state, body.request.reason, body.request.decidedAt, body.request.licenseId],
    ["denied", "Not for training.", folio.clock.now().toISOString(), null],
  );
  const second = await pending(folio, "rag");
  const bare = await folio.request(`/api/publisher/license-requests/${second.requestId}/deny`, {
    method: "POST",
    headers: demoKey(folio),
  });
  assert.equal((await json<Body>(bare)).request.reason, null);
  const requests = await listed(folio);
  assert.deepEqual(
    requests.map((r) => [r.state, r.reason]).sort(),
    [["denied", null], ["denied", "Not for training."]],
  );
  assert.equal(await licenseCount(folio), 0);
});

Deno.test("approve and deny refuse bad bodies with the field and the reason, changing nothing", async () => {
  await using folio = await testFolio();
  const { requestId } = await pending(folio);
  const approvals: [unknown, string][] = [
    [{ monthlyPriceUsdCents: -1 }, "monthlyPriceUsdCents: must be at least 0"],
    [{ monthlyPriceUsdCents: 1.5 }, "monthlyPriceUsdCents: expected an integer"],
    [{ monthlyPriceUsdCents: "10" }, "monthlyPriceUsdCents: expected a number"],
    [{ monthlyPriceUsdCents: 100_000_001 }, "monthlyPriceUsdCents: must be at most 100000000"],
    [{ termMonths: 0 }, "termMonths: must be at least 1"],
    [{ termMonths: 121 }, "termMonths: must be at most 120"],
    [{ priceUsd: 5 }, "priceUsd: is not a known field"],
    ["{oops", "body: is not valid JSON"],
    [[1], "body: must be a JSON object"],
  ];
  for (const [body, message] of approvals) {
    await assertInvalid(await decide(folio, requestId, "approve", body), message);
  }
  const denials: [unknown, string][] = [
    [{ reason: "" }, "reason: must have at least 1 character"],
    [{ reason: "x".repeat(1001) }, "reason: must have at most 1000 characters"],
    [{ reason: "bad\u0000" }, "reason: must not contain control characters"],
    [{ why: "no" }, "why: is not a known field"],
  ];
  for (const [body, message] of denials) {
    await assertInvalid(await decide(folio, requestId, "deny", body), message);
  }
  const text = await folio.request(`/api/publisher/license-requests/${requestId}/approve`, {
    method: "POST",
    headers: { ...demoKey(folio), "content-type": "text/plain" },
    body: "approve",
  });
  assert.equal(text.status, 415);
  await text.body?.cancel();
  const [request] = await listed(folio);
  assert.deepEqual([request.state, request.decidedAt], ["pending", null]);
  assert.equal(await licenseCount(folio), 0);
});

Deno.test("another publisher's requests are 404 and never listed; a cookie needs the CSRF token", async () => {
  await using folio = await testFolio();
  const { requestId } = await pending(folio);
  const other = await signUp(folio);
  for (const action of ["approve", "deny"] as const) {
    const res = await decide(folio, requestId, action, {}, bearer(other.apiKey));
    assert.equal(res.status, 404);
    await res.body?.cancel();
  }
  assert.deepEqual(await listed(folio, bearer(other.apiKey)), []);
  const unknown = await decide(folio, "lreq_nope", "approve", {});
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();

  // The demo publisher has no dashboard user: a signed-up publisher's own request.
  const { buyerId } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const own = await createLicenseRequest(folio.store.db, {
    publisherId: other.publisherId,
    identity: `buyer:${buyerId}`,
    buyerId,
    useCase: "rag",
    message: "please",
    contact: null,
  }, { now: folio.clock.now() });
  const { cookie, csrfToken } = await logIn(folio, other.email);
  const refused = await decide(folio, own.requestId, "approve", {}, { cookie });
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  assert.equal((await listed(folio, { cookie }))[0].state, "pending");
  const ok = await decide(folio, own.requestId, "approve", { termMonths: 12 }, {
    cookie,
    "x-csrf-token": csrfToken,
  });
  assert.equal(ok.status, 200);
  assert.equal((await json<Body>(ok)).offer.termMonths, 12);
});
