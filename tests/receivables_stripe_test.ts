/**
 * Paying an invoice by card (issue 38): with Stripe configured (a local server speaking Stripe's
 * API, tests/billing_fake_stripe.ts), the buyer gets a Checkout Session in payment mode for what
 * is left (the same one on a second click); Stripe's signed `checkout.session.completed` records
 * the payment and marks the invoice paid once, however often it is delivered; a bad signature
 * changes nothing; card money meeting an invoice paid meanwhile becomes credit.
 */
import assert from "node:assert/strict";
import { runBillingCron } from "../server/domain/billing/close.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { eventBody, signature, startFakeStripe } from "./billing_fake_stripe.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer } from "./manage_helpers.ts";

type Invoice = {
  number: string;
  state: string;
  amountRemainingUsdMicros: number;
  paymentUrl: string | null;
  payments: { method: string; reference: string; amountUsdMicros: number }[];
};

async function invoices(folio: TestFolio, apiKey: string) {
  return await json<{ invoices: Invoice[]; creditBalanceUsdMicros: number }>(
    await folio.request("/api/marketplace/invoices", { headers: bearer(apiKey) }),
  );
}

async function deliver(folio: TestFolio, secret: string, body: string, sig?: string) {
  const t = Math.floor(folio.clock.now().getTime() / 1000);
  return folio.request("/api/marketplace/webhooks/stripe", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": sig ?? await signature(body, { secret, t }),
    },
    body,
  });
}

async function monthClosed(folio: TestFolio, apiKey: string, months: [string, string][]) {
  const [a] = await paywalled(folio, 1);
  for (const [during, close] of months) {
    folio.clock.set(during);
    for (let i = 0; i < 10; i++) assert.equal((await read(folio, apiKey, a)).status, 200);
    folio.clock.set(close);
    await runBillingCron(folio.store.db, {
      holder: "t",
      now: folio.clock.now(),
      ttlMs: 1,
      receivables: receivablesSettings(folio.deps.config),
    });
  }
}

Deno.test("an invoice paid by Stripe Checkout: one session, the webhook records it once", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const { apiKey } = await apiSignup(folio);
  await monthClosed(folio, apiKey, [["2026-11-10T10:00:00Z", "2026-12-01T00:30:00Z"]]);
  const [inv] = (await invoices(folio, apiKey)).invoices;
  assert.equal(inv.paymentUrl, null);

  const checkout = (key = apiKey) =>
    folio.request(`/api/marketplace/invoices/${inv.number}/checkout`, {
      method: "POST",
      headers: bearer(key),
    });
  const first = await json<{ url: string; sessionId: string }>(await checkout());
  const second = await json<{ url: string; sessionId: string }>(await checkout());
  assert.equal(second.sessionId, first.sessionId, "a second click opens the same session");
  assert.equal(stripe.created, 1);
  const req = stripe.requests.find((r) => r.method === "POST")!;
  assert.equal(req.form.get("mode"), "payment");
  assert.equal(
    Number(req.form.get("line_items[0][price_data][unit_amount]")) * 10_000,
    inv.amountRemainingUsdMicros,
  );
  assert.equal((await invoices(folio, apiKey)).invoices[0].paymentUrl, first.url);
  // Someone else's key gets no session for this invoice.
  const stranger = await apiSignup(folio, { email: "x@other.test" });
  assert.equal((await checkout(stranger.apiKey)).status, 404);

  stripe.complete(first.sessionId);
  const session = stripe.sessions.get(first.sessionId)!;
  const body = eventBody("evt_inv_1", "checkout.session.completed", session);
  // A forged signature changes nothing.
  const forged = await deliver(folio, "whsec_wrong", body);
  assert.equal(forged.status, 400);
  await forged.body?.cancel();
  assert.equal((await invoices(folio, apiKey)).invoices[0].state, "open");

  const ok = await json<{ effect: string }>(await deliver(folio, stripe.webhookSecret, body));
  assert.equal(ok.effect, "paid");
  const again = await json<{ duplicate: boolean }>(
    await deliver(folio, stripe.webhookSecret, body),
  );
  assert.equal(again.duplicate, true);
  // The same session in another event (Stripe's async success) records nothing more either.
  const other = eventBody("evt_inv_2", "checkout.session.async_payment_succeeded", session);
  assert.equal((await deliver(folio, stripe.webhookSecret, other)).status, 200);
  const paid = (await invoices(folio, apiKey)).invoices[0];
  assert.equal(paid.state, "paid");
  assert.equal(paid.payments.length, 1);
  assert.equal(paid.payments[0].method, "stripe");
  assert.equal(paid.payments[0].reference, `pi_${first.sessionId}`);
  assert.equal(paid.payments[0].amountUsdMicros, inv.amountRemainingUsdMicros);
  const none = await checkout();
  assert.equal(none.status, 409);
  await none.body?.cancel();
});

Deno.test("card money for an invoice paid meanwhile goes to the buyer's credit", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const { apiKey } = await apiSignup(folio);
  await monthClosed(folio, apiKey, [["2026-11-10T10:00:00Z", "2026-12-01T00:30:00Z"]]);
  const [inv] = (await invoices(folio, apiKey)).invoices;
  const { sessionId } = await json<{ sessionId: string }>(
    await folio.request(`/api/marketplace/invoices/${inv.number}/checkout`, {
      method: "POST",
      headers: bearer(apiKey),
    }),
  );
  // Paid by transfer first (recorded by the operator's domain call), then the card goes through.
  const { recordPayment } = await import("../server/domain/billing/receivables.ts");
  await recordPayment(folio.store.db, {
    seq: Number(inv.number.slice(6)),
    amountMicros: inv.amountRemainingUsdMicros,
    paidOn: "2026-12-02",
    method: "bank_transfer",
    reference: "SEPA",
    idempotencyKey: "bank-1",
    actor: { kind: "operator", id: "op_t" },
  }, { now: folio.clock.now(), settings: receivablesSettings(folio.deps.config) });
  stripe.complete(sessionId);
  const body = eventBody("evt_late", "checkout.session.completed", stripe.sessions.get(sessionId)!);
  const r = await json<{ effect: string }>(await deliver(folio, stripe.webhookSecret, body));
  assert.equal(r.effect, "credited");
  const after = await invoices(folio, apiKey);
  assert.equal(after.creditBalanceUsdMicros, inv.amountRemainingUsdMicros);
  assert.equal(after.invoices[0].payments.length, 1);
});
