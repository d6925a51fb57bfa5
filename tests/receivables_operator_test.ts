/**
 * The operator's invoices and suspensions (issue 38 parts 2 and 3) through /api/operator: lists
 * with filters and paging, payments (partial, retried, refused), a suspension for an overdue
 * invoice refused alike on REST, MCP, A2A, NLWeb, the landing path and the crawler gate while free
 * reads still work, the lift on payment, suspending and lifting by hand, and the audit log.
 */
import assert from "node:assert/strict";
import { runBillingCron } from "../server/domain/billing/close.ts";
import { creditControl } from "../server/domain/billing/credit_control.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import { formatCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { message, rpc, stateOf } from "../server/surfaces/a2a/_test_utils.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { demoPath, GPTBOT, HOST } from "./landing_helpers.ts";
import { bearer } from "./manage_helpers.ts";
import { initialize, post } from "./mcp_helpers.ts";
import { operatorKey, operatorRequest, signedInOperator } from "./operator_helpers.ts";

const DAY = 86_400_000;

type Article = { id: string; path: string };

/** What each surface answers a buyer reading `a`: "served", or the refusal's status word. */
async function surfaces(folio: TestFolio, apiKey: string, a: Article) {
  const auth = `Bearer ${apiKey}`;
  const out: Record<string, string> = {};
  const rest = await folio.request(`/api/v1/articles/${a.id}?last_user_prompt=q`, {
    host: HOST,
    headers: { authorization: auth },
  });
  const restBody = await rest.json();
  out.rest = rest.status === 200 ? "served" : `${rest.status} ${restBody.status}`;

  const { sessionId } = await initialize(folio, { headers: { authorization: auth } });
  const mcp = await (await post(folio, {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_article", arguments: { url_or_id: a.id } },
  }, { sessionId, headers: { authorization: auth, "mcp-protocol-version": "2025-06-18" } }))
    .json();
  const sc = mcp.result.structuredContent;
  out.mcp = sc.status === "full" ? "served" : sc.status;

  const msg = message("1.0", { data: { skill: "get_article", url_or_id: a.id } });
  const a2a = await rpc(folio, "SendMessage", { message: msg }, { auth });
  const state = stateOf(a2a.body.result);
  // deno-lint-ignore no-explicit-any
  const parts: any[] = a2a.body.result.task.status.message?.parts ?? [];
  out.a2a = state === "completed" ? "served" : `${state} ${parts.find((p) => p.data)?.data.status}`;

  const page = await folio.request(a.path, {
    host: HOST,
    headers: {
      authorization: auth,
      "user-agent": GPTBOT,
      "crawler-max-price": formatCrawlerPrice(10_000_000),
    },
  });
  const pageText = await page.text();
  out.landing = page.status === 200
    ? "served"
    : `${page.status} ${/payment_overdue/.test(pageText) ? "payment_overdue" : pageText}`;

  const gate = await folio.request("/api/gate/v1/forward-auth", {
    headers: {
      "x-forwarded-host": HOST,
      "x-forwarded-proto": "https",
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-method": "GET",
      "x-forwarded-uri": a.path,
      "user-agent": GPTBOT,
      authorization: auth,
      "crawler-max-price": formatCrawlerPrice(10_000_000),
    },
  });
  const gateText = await gate.text();
  out.gate = gate.status === 200
    ? "served"
    : `${gate.status} ${/payment_overdue/.test(gateText) ? "payment_overdue" : gateText}`;
  return out;
}

/** NLWeb: the status the result for `id` carries ("ok" when none). */
async function nlwebStatus(folio: TestFolio, apiKey: string, query: string, id: string) {
  const res = await folio.request("/ask", {
    method: "POST",
    host: HOST,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query: { text: query }, prefer: { streaming: false } }),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  // deno-lint-ignore no-explicit-any
  const hit = body.results.find((r: any) => r.url.includes(id) || r["@id"]?.includes(id)) ??
    body.results[0];
  return hit?.folio_status ?? "ok";
}

Deno.test("operator: invoices listed and paid, a suspension refused on every surface, lifted by payment and by hand, all audited", async () => {
  await using folio = await testFolio();
  folio.clock.set("2026-11-10T10:00:00Z");
  const { buyerId, apiKey } = await apiSignup(folio);
  const other = await apiSignup(folio, { email: "other@acme.test" });
  const paid = await demoPath(folio, "PAYWALL");
  const free = await demoPath(folio, "OBSERVE");
  const everywhere = {
    rest: "served",
    mcp: "served",
    a2a: "served",
    landing: "served",
    gate: "served",
  };
  assert.deepEqual(await surfaces(folio, apiKey, paid), everywhere);
  assert.deepEqual(await surfaces(folio, other.apiKey, paid), everywhere);

  const op = await signedInOperator(folio);
  const { apiKey: opKey } = await operatorKey(folio, op);
  const as = { key: opKey };
  folio.clock.set("2026-12-01T00:30:00Z");
  await runBillingCron(folio.store.db, {
    holder: "t",
    now: folio.clock.now(),
    ttlMs: 1,
    receivables: receivablesSettings(folio.deps.config),
  });

  // Lists: filters and paging.
  const list = async (q: string) => {
    const res = await operatorRequest(folio, "GET", `/api/operator/invoices${q}`, as);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body as {
      invoices: {
        number: string;
        buyerId: string;
        buyerName: string;
        amountDueUsdMicros: number;
        state: string;
      }[];
      nextOffset: number | null;
    };
  };
  assert.equal((await list("?state=open")).invoices.length, 2);
  assert.equal((await list("?state=paid")).invoices.length, 0);
  assert.equal((await list("?month=2026-10")).invoices.length, 0);
  const mine = (await list(`?buyerId=${buyerId}`)).invoices;
  assert.equal(mine.length, 1);
  assert.equal(mine[0].buyerName, "Acme AI");
  const firstPage = await list("?limit=1");
  assert.equal(firstPage.invoices.length, 1);
  assert.equal(firstPage.nextOffset, 1);
  assert.equal((await list("?limit=1&offset=1")).nextOffset, null);
  const bad = await operatorRequest(folio, "GET", "/api/operator/invoices?state=late", as);
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  const number = mine[0].number;
  const due = mine[0].amountDueUsdMicros;

  // Payments: refusals change nothing; a partial payment, and its retry.
  const payPath = `/api/operator/invoices/${number}/payments`;
  const payment = (amount: number, key: string) => ({
    amountUsdMicros: amount,
    paidOn: "2026-12-05",
    method: "bank_transfer",
    reference: "SEPA 4711",
    idempotencyKey: key,
  });
  for (
    const [body, code] of [
      [payment(-10_000, "k0"), "invalid_request"],
      [payment(0, "k0"), "invalid_request"],
      [payment(15, "k0"), "invalid_request"],
      [payment(due + 500_000_000, "k0"), "payment_too_large"],
    ] as const
  ) {
    const res = await operatorRequest(folio, "POST", payPath, as, body);
    const answer = await res.json();
    assert.equal(res.status, 400, JSON.stringify(answer));
    assert.equal(answer.error.code, code);
  }
  // Buyer and publisher credentials are not the operator's.
  const asBuyer = await folio.request(payPath, {
    method: "POST",
    headers: { ...bearer(apiKey), "content-type": "application/json" },
    body: JSON.stringify(payment(10_000, "kb")),
  });
  assert.equal(asBuyer.status, 403);
  await asBuyer.body?.cancel();
  const partial = Math.floor(due / 20_000) * 10_000;
  const first = await operatorRequest(folio, "POST", payPath, as, payment(partial, "k1"));
  assert.equal(first.status, 201);
  assert.equal((await first.json()).invoice.state, "partially_paid");
  const retry = await operatorRequest(folio, "POST", payPath, as, payment(partial, "k1"));
  assert.equal(retry.status, 200);
  const retried = await retry.json();
  assert.equal(retried.replayed, true);
  assert.equal(retried.invoice.payments.length, 1);
  const voidPaid = await operatorRequest(
    folio,
    "POST",
    `/api/operator/invoices/${number}/void`,
    as,
    {
      reason: "wrong",
    },
  );
  assert.equal(voidPaid.status, 409);
  assert.equal((await voidPaid.json()).error.code, "invoice_has_payments");

  // Overdue past the grace period: suspended; every priced read refused alike, free reads served.
  const dueAt = Date.parse(
    (await json<{ dueAt: string }>(
      await operatorRequest(folio, "GET", `/api/operator/invoices/${number}`, as),
    ))
      .dueAt,
  );
  // The other buyer pays in full, so only this one is suspended.
  const theirs = (await list(`?buyerId=${other.buyerId}`)).invoices[0];
  const paidUp = await operatorRequest(
    folio,
    "POST",
    `/api/operator/invoices/${theirs.number}/payments`,
    as,
    payment(theirs.amountDueUsdMicros, "k-other"),
  );
  assert.equal(paidUp.status, 201);
  await paidUp.body?.cancel();
  folio.clock.set(new Date(dueAt + 15 * DAY));
  const run = await creditControl(folio.store.db, {
    now: folio.clock.now(),
    settings: receivablesSettings(folio.deps.config),
  });
  assert.equal(run.suspended, 1);
  const refused = {
    rest: "402 payment_overdue",
    mcp: "payment_overdue",
    a2a: "rejected payment_overdue",
    landing: "403 payment_overdue",
    gate: "403 payment_overdue",
  };
  assert.deepEqual(await surfaces(folio, apiKey, paid), refused);
  // A free article is served, except through the gate: a crawler the publisher charges pays for
  // every page of its own site (docs/decisions/landing-and-crawlers.md), so there it is priced.
  assert.deepEqual(await surfaces(folio, apiKey, free), {
    ...everywhere,
    gate: "403 payment_overdue",
  });
  assert.deepEqual(await surfaces(folio, other.apiKey, paid), everywhere);
  const title = String(
    (await folio.store.db.execute({
      sql: "SELECT title FROM articles WHERE id = ?",
      args: [paid.id],
    })).rows[0].title,
  );
  assert.equal(await nlwebStatus(folio, apiKey, title, paid.id), "payment_overdue");
  assert.equal(await nlwebStatus(folio, other.apiKey, title, paid.id), "ok");
  const rest = await folio.request(`/api/v1/articles/${paid.id}?last_user_prompt=q`, {
    host: HOST,
    headers: bearer(apiKey),
  });
  const restBody = await rest.json();
  assert.equal(restBody.invoiceNumber, number);
  assert.match(restBody.invoiceUrl, /\/buyer\/statements\/2026-11\/invoice$/);

  const open = await operatorRequest(folio, "GET", "/api/operator/suspensions?open=true", as);
  const openBody = await open.json();
  assert.equal(openBody.suspensions.length, 1);
  assert.equal(openBody.suspensions[0].reason, "payment_overdue");
  assert.equal(openBody.suspensions[0].invoiceNumber, number);

  // Paying the rest lifts it at once.
  const rest2 = await operatorRequest(folio, "POST", payPath, as, payment(due - partial, "k2"));
  assert.equal(rest2.status, 201);
  assert.equal((await rest2.json()).invoice.state, "paid");
  assert.deepEqual(await surfaces(folio, apiKey, paid), everywhere);

  // By hand, with a reason; lifted by hand.
  const suspend = await operatorRequest(folio, "POST", "/api/operator/suspensions", as, {
    buyerId,
    reason: "Chargeback under review",
  });
  assert.equal(suspend.status, 201);
  assert.equal((await suspend.json()).reason, "manual");
  const twice = await operatorRequest(folio, "POST", "/api/operator/suspensions", as, {
    buyerId,
    reason: "again",
  });
  assert.equal(twice.status, 409);
  await twice.body?.cancel();
  assert.equal((await surfaces(folio, apiKey, paid)).rest, "402 payment_overdue");
  const noReason = await operatorRequest(
    folio,
    "POST",
    `/api/operator/suspensions/${buyerId}/lift`,
    as,
    {
      reason: "",
    },
  );
  assert.equal(noReason.status, 400);
  await noReason.body?.cancel();
  const lift = await operatorRequest(
    folio,
    "POST",
    `/api/operator/suspensions/${buyerId}/lift`,
    as,
    {
      reason: "Resolved with the bank",
    },
  );
  assert.equal(lift.status, 200);
  assert.equal((await lift.json()).suspended, false);
  assert.equal((await surfaces(folio, apiKey, paid)).rest, "served");
  const again = await operatorRequest(
    folio,
    "POST",
    `/api/operator/suspensions/${buyerId}/lift`,
    as,
    {
      reason: "x",
    },
  );
  assert.equal(again.status, 409);
  await again.body?.cancel();

  // The audit log has every step, with before and after.
  const audit = await operatorRequest(folio, "GET", "/api/operator/audit?limit=100", as);
  const entries = (await audit.json()).entries as {
    action: string;
    actor: { kind: string };
    subject: { id: string };
    before: unknown;
    after: unknown;
    reason: string | null;
  }[];
  const actions = entries.filter((e) => e.subject.id === number || e.subject.id === buyerId)
    .map((e) => `${e.actor.kind} ${e.action}`).reverse();
  assert.deepEqual(actions, [
    "system invoice.issued",
    "operator invoice.payment_recorded",
    "system buyer.suspended",
    "operator invoice.payment_recorded",
    "system buyer.reinstated",
    "operator buyer.suspended",
    "operator buyer.reinstated",
  ]);
  const manual = entries.find((e) =>
    e.action === "buyer.suspended" && e.actor.kind === "operator"
  )!;
  assert.equal(manual.reason, "Chargeback under review");
  assert.deepEqual(manual.before, { suspended: false });
});

Deno.test("a suspension and its lift are seen by the very next read (the configuration cache's version)", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await apiSignup(folio);
  const paid = await demoPath(folio, "PAYWALL");
  const restRead = async () => {
    const res = await folio.request(`/api/v1/articles/${paid.id}?last_user_prompt=q`, {
      host: HOST,
      headers: bearer(apiKey),
    });
    await res.body?.cancel();
    return res.status;
  };
  assert.equal(await restRead(), 200);
  assert.equal(await restRead(), 200);
  const { liftByHand, suspendByHand } = await import("../server/domain/billing/suspensions.ts");
  const actor = { kind: "operator" as const, id: "op" };
  const options = { now: folio.clock.now(), settings: receivablesSettings(folio.deps.config) };
  await suspendByHand(folio.store.db, { buyerId, note: "test", actor }, options);
  assert.equal(await restRead(), 402);
  await liftByHand(folio.store.db, { buyerId, note: "done", actor }, options);
  assert.equal(await restRead(), 200);
});
