/**
 * Receivables and credit control (issue 38 parts 2 and 3) under a moved clock: a month closes and
 * its invoice is issued (due 30 days later); a partial payment, its retry, refusals that change
 * nothing; reminders before, on and after the due date, once each; suspension past the grace
 * period; paying the rest lifts it at once; an overpayment becomes credit the next invoice uses.
 */
import assert from "node:assert/strict";
import { runBillingCron } from "../server/domain/billing/close.ts";
import { creditBalance } from "../server/domain/billing/credits.ts";
import { creditControl } from "../server/domain/billing/credit_control.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import {
  closeUnpaidInvoice,
  type PaymentInput,
  recordPayment,
} from "../server/domain/billing/receivables.ts";
import type { AppError } from "../server/platform/errors.ts";
import { remindersOf } from "../store/receivables.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

const DAY = 86_400_000;
const OPERATOR = { kind: "operator" as const, id: "op_test" };

interface Receivables {
  balanceDueUsdMicros: number;
  creditBalanceUsdMicros: number;
  suspension: { reason: string; invoiceNumber: string | null; url: string } | null;
  invoices: {
    number: string;
    month: string;
    state: string;
    overdue: boolean;
    issuedAt: string;
    dueAt: string;
    url: string;
    totalUsdMicros: number;
    creditAppliedUsdMicros: number;
    amountDueUsdMicros: number;
    paidUsdMicros: number;
    amountRemainingUsdMicros: number;
    payments: { amountUsdMicros: number; method: string; reference: string }[];
  }[];
}

async function receivables(folio: TestFolio, apiKey: string): Promise<Receivables> {
  const res = await folio.request("/api/marketplace/invoices", { headers: bearer(apiKey) });
  assert.equal(res.status, 200);
  return await json<Receivables>(res);
}

function settingsOf(folio: TestFolio) {
  return receivablesSettings(folio.deps.config);
}

function pay(
  folio: TestFolio,
  input: Partial<PaymentInput> & { seq: number; amountMicros: number },
) {
  return recordPayment(folio.store.db, {
    paidOn: folio.clock.now().toISOString().slice(0, 10),
    method: "bank_transfer",
    reference: "TRX-1",
    idempotencyKey: crypto.randomUUID(),
    actor: { kind: "operator" as const, id: "op_test" },
    ...input,
  }, { now: folio.clock.now(), settings: settingsOf(folio) });
}

async function refused(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (e: AppError) => {
    assert.equal(e.code, code, e.message);
    return true;
  });
}

async function eventsOf(folio: TestFolio, buyerId: string): Promise<string[]> {
  const rs = await folio.store.db.execute({
    // Credit control's own events: since email (w6-email) keeps every event for its mail, the
    // month's statement.closed is kept beside them.
    sql: `SELECT type FROM webhook_events WHERE owner_id = ? AND type != 'statement.closed'
          ORDER BY rowid`,
    args: [buyerId],
  });
  return rs.rows.map((r) => String(r.type));
}

async function closeMonthAt(folio: TestFolio, at: string) {
  folio.clock.set(at);
  const r = await runBillingCron(folio.store.db, {
    holder: "test",
    now: folio.clock.now(),
    ttlMs: 1,
    receivables: settingsOf(folio),
  });
  assert.equal(r.ran, true);
}

Deno.test("an invoice's whole life: issued, partly paid, reminded, overdue, suspended, paid and lifted", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.clock.set("2026-11-10T10:00:00Z");
  const { buyerId, apiKey } = await apiSignup(folio);
  const hook = await sendJson(folio, "POST", "/api/marketplace/webhook-endpoints", {
    url: "http://127.0.0.1:9/hook",
    events: [
      "invoice.issued",
      "invoice.due_soon",
      "invoice.overdue",
      "invoice.paid",
      "buyer.suspended",
      "buyer.reinstated",
    ],
  }, bearer(apiKey));
  assert.equal(hook.status, 201);
  await hook.body?.cancel();
  const [a, b] = await paywalled(folio, 2);
  for (let i = 0; i < 40; i++) assert.equal((await read(folio, apiKey, i % 2 ? a : b)).status, 200);

  await closeMonthAt(folio, "2026-12-01T00:30:00Z");
  let r = await receivables(folio, apiKey);
  assert.equal(r.invoices.length, 1);
  const inv = r.invoices[0];
  assert.equal(inv.state, "open");
  assert.equal(inv.month, "2026-11");
  assert.equal(Date.parse(inv.dueAt) - Date.parse(inv.issuedAt), 30 * DAY);
  assert.equal(inv.amountDueUsdMicros % 10_000, 0, "the amount due is whole cents");
  assert.ok(Math.abs(inv.amountDueUsdMicros - inv.totalUsdMicros) <= 5_000, "rounded to the cent");
  assert.equal(r.balanceDueUsdMicros, inv.amountDueUsdMicros);
  assert.deepEqual(await eventsOf(folio, buyerId), ["invoice.issued"]);
  const seq = Number(inv.number.slice(6));
  const due = Date.parse(inv.dueAt);

  // Refusals change nothing.
  await refused(pay(folio, { seq, amountMicros: -10_000 }), "invalid_amount");
  await refused(pay(folio, { seq, amountMicros: 0 }), "invalid_amount");
  await refused(pay(folio, { seq, amountMicros: 12_345 }), "invalid_amount");
  await refused(
    pay(folio, { seq, amountMicros: inv.amountDueUsdMicros + 200_000_000 }),
    "payment_too_large",
  );
  await refused(pay(folio, { seq: 999_999, amountMicros: 10_000 }), "not_found");
  assert.equal((await receivables(folio, apiKey)).invoices[0].paidUsdMicros, 0);

  // A partial payment, and its retry under the same key: recorded once.
  const half = Math.floor(inv.amountDueUsdMicros / 20_000) * 10_000;
  const first = await pay(folio, { seq, amountMicros: half, idempotencyKey: "pay-1" });
  assert.equal(first.replayed, false);
  const again = await pay(folio, { seq, amountMicros: half, idempotencyKey: "pay-1" });
  assert.equal(again.replayed, true);
  await refused(
    pay(folio, { seq, amountMicros: half + 10_000, idempotencyKey: "pay-1" }),
    "idempotency_key_reused",
  );
  r = await receivables(folio, apiKey);
  assert.equal(r.invoices[0].state, "partially_paid");
  assert.equal(r.invoices[0].paidUsdMicros, half);
  assert.equal(r.invoices[0].payments.length, 1);
  assert.equal(r.balanceDueUsdMicros, inv.amountDueUsdMicros - half);

  // Reminders: 7 days before, on the day, after; each once however often the cron runs.
  const settings = settingsOf(folio);
  const run = async (at: number) => {
    folio.clock.set(new Date(at));
    return await creditControl(folio.store.db, { now: folio.clock.now(), settings });
  };
  assert.deepEqual(await run(due - 8 * DAY), { reminders: 0, suspended: 0 });
  assert.deepEqual(await run(due - 7 * DAY + 60_000), { reminders: 1, suspended: 0 });
  assert.deepEqual(await run(due - 6 * DAY), { reminders: 0, suspended: 0 });
  assert.deepEqual(await run(due - 3_600_000), { reminders: 1, suspended: 0 });
  assert.deepEqual(await run(due - 60_000), { reminders: 0, suspended: 0 });
  assert.deepEqual(await run(due + 3_600_000), { reminders: 1, suspended: 0 });
  assert.deepEqual(await run(due + 2 * DAY), { reminders: 0, suspended: 0 });
  assert.deepEqual(await remindersOf(folio.store.db, seq), ["due_soon", "due_today", "overdue"]);
  assert.equal((await receivables(folio, apiKey)).invoices[0].overdue, true);
  // Still reading: the grace period has not run out.
  assert.equal((await read(folio, apiKey, a)).status, 200);

  // Past the grace period the buyer is suspended, once.
  assert.deepEqual(await run(due + 14 * DAY + 3_600_000), { reminders: 0, suspended: 1 });
  assert.deepEqual(await run(due + 15 * DAY), { reminders: 0, suspended: 0 });
  r = await receivables(folio, apiKey);
  assert.equal(r.suspension?.reason, "payment_overdue");
  assert.equal(r.suspension?.invoiceNumber, inv.number);
  const refusedRead = await read(folio, apiKey, a);
  assert.equal(refusedRead.status, 402);
  assert.equal(refusedRead.body.status, "payment_overdue");
  assert.equal(refusedRead.body.invoiceNumber, inv.number);
  assert.equal(refusedRead.body.invoiceUrl, inv.url);
  assert.match(refusedRead.body.message, new RegExp(`invoice ${inv.number} is overdue`));

  // Paying the rest lifts it at once.
  const rest = await pay(folio, { seq, amountMicros: inv.amountDueUsdMicros - half });
  assert.equal(rest.invoice.state, "paid");
  assert.equal((await receivables(folio, apiKey)).suspension, null);
  assert.equal((await read(folio, apiKey, a)).status, 200);
  await refused(pay(folio, { seq, amountMicros: 10_000 }), "invoice_paid");
  assert.deepEqual(await eventsOf(folio, buyerId), [
    "invoice.issued",
    "invoice.due_soon",
    "invoice.due_soon",
    "invoice.overdue",
    "buyer.suspended",
    "invoice.paid",
    "buyer.reinstated",
  ]);
  const rs = await folio.store.db.execute({
    sql: "SELECT payload FROM webhook_events WHERE owner_id = ? AND type = 'invoice.overdue'",
    args: [buyerId],
  });
  const data = JSON.parse(String(rs.rows[0].payload)).data;
  assert.deepEqual(Object.keys(data).sort(), [
    "amountDueMicros",
    "dueAt",
    "invoiceNumber",
    "month",
    "reminder",
    "totalMicros",
    "url",
  ]);
  assert.equal(data.invoiceNumber, inv.number);
  assert.equal(data.dueAt, inv.dueAt);
  assert.equal(data.amountDueMicros, inv.amountDueUsdMicros - half);
});

Deno.test("an overpayment is credit the next invoice uses, shown on it; void and uncollectible take no payment", async () => {
  await using folio = await testFolio();
  folio.clock.set("2026-10-10T10:00:00Z");
  const { buyerId, apiKey } = await apiSignup(folio);
  const [a] = await paywalled(folio, 1);
  for (let i = 0; i < 10; i++) assert.equal((await read(folio, apiKey, a)).status, 200);
  await closeMonthAt(folio, "2026-11-01T00:30:00Z");
  const october = (await receivables(folio, apiKey)).invoices[0];
  const seq = Number(october.number.slice(6));
  // Paid 5 USD more than asked: the 5 USD is credit.
  const over = await pay(folio, { seq, amountMicros: october.amountDueUsdMicros + 5_000_000 });
  assert.equal(over.invoice.state, "paid");
  assert.equal(over.creditedMicros, 5_000_000);
  assert.equal(await creditBalance(folio.store.db, buyerId), 5_000_000);

  folio.clock.set("2026-11-12T10:00:00Z");
  for (let i = 0; i < 10; i++) assert.equal((await read(folio, apiKey, a)).status, 200);
  await closeMonthAt(folio, "2026-12-01T00:30:00Z");
  const r = await receivables(folio, apiKey);
  const november = r.invoices.find((i) => i.month === "2026-11")!;
  const dueBefore = november.totalUsdMicros - (november.totalUsdMicros % 10_000);
  assert.ok(november.creditAppliedUsdMicros > 0);
  assert.equal(
    november.creditAppliedUsdMicros + november.amountDueUsdMicros,
    Math.round(november.totalUsdMicros / 10_000) * 10_000,
  );
  assert.ok(dueBefore >= 0);
  assert.equal(r.creditBalanceUsdMicros, 5_000_000 - november.creditAppliedUsdMicros);
  // The invoice page shows the credit line.
  const page = await folio.request("/api/marketplace/statement/invoice?month=2026-11", {
    headers: bearer(apiKey),
  });
  assert.match(await page.text(), /Credit applied from your balance/);

  // Void and uncollectible: no payment afterwards, and nothing changes.
  const nSeq = Number(november.number.slice(6));
  const settings = settingsOf(folio);
  const now = folio.clock.now();
  if (november.amountDueUsdMicros > 0) {
    await closeUnpaidInvoice(folio.store.db, {
      seq: nSeq,
      state: "void",
      reason: "issued in error",
      actor: OPERATOR,
    }, {
      now,
      settings,
    });
    await refused(pay(folio, { seq: nSeq, amountMicros: 10_000 }), "invoice_void");
    // Voiding gave the credit back.
    assert.equal(await creditBalance(folio.store.db, buyerId), 5_000_000);
  }
  await refused(
    closeUnpaidInvoice(folio.store.db, {
      seq,
      state: "uncollectible",
      reason: "x",
      actor: OPERATOR,
    }, {
      now,
      settings,
    }),
    "invoice_paid",
  );
});

Deno.test("invoices are the buyer's own: another buyer's number is 404, a bad key 401", async () => {
  await using folio = await testFolio();
  folio.clock.set("2026-10-10T10:00:00Z");
  const one = await apiSignup(folio, { email: "one@acme.test" });
  const two = await apiSignup(folio, { email: "two@acme.test" });
  const [a] = await paywalled(folio, 1);
  assert.equal((await read(folio, one.apiKey, a)).status, 200);
  await closeMonthAt(folio, "2026-11-01T00:30:00Z");
  const number = (await receivables(folio, one.apiKey)).invoices[0].number;
  const mine = await folio.request(`/api/marketplace/invoices/${number}`, {
    headers: bearer(one.apiKey),
  });
  assert.equal(mine.status, 200);
  assert.equal((await json<{ number: string }>(mine)).number, number);
  const theirs = await folio.request(`/api/marketplace/invoices/${number}`, {
    headers: bearer(two.apiKey),
  });
  assert.equal(theirs.status, 404);
  await theirs.body?.cancel();
  const none = await folio.request("/api/marketplace/invoices", { headers: bearer("mk_wrong") });
  assert.equal(none.status, 401);
  await none.body?.cancel();
  // Without Stripe there is no card link.
  const card = await folio.request(`/api/marketplace/invoices/${number}/checkout`, {
    method: "POST",
    headers: bearer(one.apiKey),
  });
  assert.equal(card.status, 409);
  assert.equal(
    (await json<{ error: { code: string } }>(card)).error.code,
    "card_payment_unavailable",
  );
});
