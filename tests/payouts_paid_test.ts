/**
 * Payouts paid (issue 38 part 5; docs/decisions/billing.md "Payouts paid"): payee details sealed at
 * rest, masked, checked; the payout run (holds, a batch, its file, paid with date and reference)
 * refusing a held payout, a payout batched twice and a payout paid twice; every step audited; the
 * publisher sees it and gets `payout.paid`.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { closeMonth } from "../server/domain/billing/close.ts";
import {
  approveBatch,
  exportBatch,
  markPaid,
  reviewHold,
} from "../server/domain/billing/payout_batches.ts";
import { payoutsDue } from "../server/domain/billing/payouts_due.ts";
import { drainDue } from "../server/domain/webhooks/delivery.ts";
import { listAudit } from "../store/audit_log.ts";
import { auditView } from "../server/domain/audit/audit.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { payInvoices, setPayee } from "./payout_helpers.ts";
import { buyerWithItems, decide, dispute } from "./dispute_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const OP = { kind: "operator" as const, id: "op_test" };

const key = (folio: TestFolio) => bearer(folio.seeded!.apiKey);

/** Three charged reads of the demo's content in November, then November closed. */
async function earnAndClose(folio: TestFolio) {
  const { apiKey } = await signup(folio, "payer");
  for (const id of await paywalled(folio, 3)) {
    assert.equal((await read(folio, apiKey, id)).status, 200);
  }
  folio.clock.set(new Date("2026-12-01T01:00:00Z"));
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  await payInvoices(folio, "2026-11");
}

/** The audit log's entries about `subjectId`, oldest first. */
async function auditOf(folio: TestFolio, subjectId: string) {
  return (await listAudit(folio.store.db, { subjectId }, 50)).map(auditView).reverse();
}

Deno.test("payee details: sealed at rest, masked in every answer, bad input refused", async () => {
  await using folio = await testFolio({ env: { FOLIO_PAYEE_KEY_SECRET: "payee secret" } });
  const none: Any = await json(
    await folio.request("/api/publisher/payee", { headers: key(folio) }),
  );
  assert.deepEqual(none, { payee: null, encryptedWith: "operator_secret" });

  const refused: [Record<string, unknown>, string][] = [
    [{ iban: "DE89 3704 0044 0532 0130 01" }, "iban"], // checksum off by one
    [{ iban: "DE89 3704 0044 0532 0130" }, "iban"], // Germany's length is 22
    [{ bic: "NOTABIC" }, "bic"],
    [{ country: "XX" }, "country"],
    [{ currency: "EURO" }, "currency"],
    [{ legalName: " " }, "legalName"],
    [{
      method: "us_account",
      routingNumber: "021000022",
      accountNumber: "123456789",
      accountType: "checking",
      iban: undefined,
      bic: undefined,
    }, "routingNumber"],
    [{
      method: "email",
      provider: "paypal",
      email: "not-an-email",
      iban: undefined,
      bic: undefined,
    }, "email"],
    [{ method: "cheque" }, "method"],
  ];
  for (const [body, param] of refused) {
    const res = await setPayee(folio, body);
    const answer: Any = await json(res);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(answer.error.param, param, JSON.stringify(answer));
  }
  const rows = await folio.store.db.execute("SELECT COUNT(*) AS n FROM payee_details");
  assert.equal(Number(rows.rows[0].n), 0, "a refusal stores nothing");

  const saved: Any = await json(await setPayee(folio));
  assert.equal(saved.payee.masked, "IBAN •••• 3000");
  assert.equal(saved.payee.legalName, "Demo Media GmbH");
  const raw = await folio.store.db.execute("SELECT * FROM payee_details");
  const row = JSON.stringify(raw.rows[0]);
  assert.ok(!row.includes("370400440532013000"), "the IBAN is not stored readable");
  assert.ok(!row.includes("Demo Media"), "nor the legal name");
  assert.match(String(raw.rows[0].sealed), /^eyJ[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/, "a JWE (dir)");
  const got = await folio.request("/api/publisher/payee", { headers: key(folio) });
  const text = await got.text();
  assert.ok(!text.includes("370400440532013000") && !text.includes("0532 0130"), text);

  // A US account: the routing number's checksum holds; answers mask the account number.
  const us: Any = await json(
    await setPayee(folio, {
      method: "us_account",
      iban: undefined,
      bic: undefined,
      country: "US",
      currency: "USD",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      accountType: "checking",
    }),
  );
  assert.equal(us.payee.masked, "Account •••• 6789 (routing 021000021)");
  const audit = await auditOf(folio, "pub_demo");
  assert.deepEqual(audit.map((a) => a.action), ["payee.updated", "payee.updated"]);
  assert.equal(audit[0].before, null);
  assert.deepEqual(audit[1].before, {
    method: "iban",
    last4: "3000",
    country: "DE",
    currency: "EUR",
  });
  assert.ok(!JSON.stringify(audit).includes("000123456789"), "the audit keeps no numbers");
});

Deno.test("without FOLIO_PAYEE_KEY_SECRET details are sealed under a key the store keeps", async () => {
  await using folio = await testFolio();
  const saved: Any = await json(await setPayee(folio));
  assert.equal(saved.encryptedWith, "store_key");
  const raw = await folio.store.db.execute("SELECT sealed FROM payee_details");
  assert.ok(!String(raw.rows[0].sealed).includes("3704"));
  const keys = await folio.store.db.execute("SELECT COUNT(*) AS n FROM node_keys");
  assert.equal(Number(keys.rows[0].n), 1);
});

Deno.test("the payout run: holds, a batch, its file, paid with date and reference, refusals", async () => {
  await using folio = await testFolio({
    env: { FOLIO_PAYEE_KEY_SECRET: "payee secret", FOLIO_FETCH_ALLOW_LOOPBACK: "1" },
  });
  const hits: Any[] = [];
  await using _rx = {
    server: Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      hits.push(JSON.parse(await req.text()));
      return new Response("ok");
    }),
    async [Symbol.asyncDispose]() {
      await this.server.shutdown();
    },
  };
  const endpoint = await sendJson(folio, "POST", "/api/publisher/webhook-endpoints", {
    url: `http://127.0.0.1:${_rx.server.addr.port}/hooks`,
    events: ["payout.paid"],
  }, key(folio));
  assert.equal(endpoint.status, 201);
  await endpoint.body?.cancel();
  await earnAndClose(folio);
  const db = folio.store.db;
  const now = () => folio.clock.now();
  const earned = await db.execute(
    "SELECT id, amount_micros FROM payouts WHERE publisher_id = 'pub_demo' AND month = '2026-11'",
  );
  const payoutId = String(earned.rows[0].id);
  const earnedMicros = Number(earned.rows[0].amount_micros);

  // No payee details: held, with the reason; approving it is refused and writes nothing.
  let [due] = await payoutsDue(db, "2026-11");
  assert.deepEqual(due.holds.map((h) => h.code), ["no_payee_details"]);
  await assert.rejects(
    approveBatch(db, { month: "2026-11", payoutIds: [payoutId], actor: OP, now: now() }),
    (e: Any) => e.code === "payout_held" && /not said where to pay/.test(e.message),
  );
  await assert.rejects(
    approveBatch(db, { month: "2026-11", actor: OP, now: now() }),
    (e: Any) => e.code === "nothing_to_pay",
  );
  const history: Any = await json(
    await folio.request("/api/publisher/payouts/history", { headers: key(folio) }),
  );
  assert.equal(history.payouts[0].state, "held");
  assert.equal(history.payouts[0].holds[0].code, "no_payee_details");

  await (await setPayee(folio)).body?.cancel();
  [due] = await payoutsDue(db, "2026-11");
  assert.deepEqual(due.holds, []);
  // Whole cents of what buyers paid (their invoices were paid in full).
  assert.equal(due.dueMicros, earnedMicros - (earnedMicros % 10_000));

  // Under review: held with the operator's reason; released, due again.
  await reviewHold(db, { payoutId, reason: "checking the account", actor: OP, now: now() });
  [due] = await payoutsDue(db, "2026-11");
  assert.deepEqual(due.holds.map((h) => h.reason), ["Under review: checking the account"]);
  await assert.rejects(
    approveBatch(db, { month: "2026-11", payoutIds: [payoutId], actor: OP, now: now() }),
    (e: Any) => e.code === "payout_held",
  );
  await reviewHold(db, { payoutId, reason: null, actor: OP, now: now() });

  // Marking paid before a batch is refused.
  await assert.rejects(
    markPaid(db, {
      payoutId,
      paidAt: now(),
      reference: "X",
      actor: OP,
      now: now(),
      baseUrl: folio.url,
    }),
    (e: Any) => e.code === "payout_not_batched",
  );

  const { batch, payouts } = await approveBatch(db, { month: "2026-11", actor: OP, now: now() });
  assert.equal(batch.payoutCount, 1);
  assert.equal(batch.totalMicros, due.dueMicros);
  assert.equal(payouts[0].paidMicros, due.dueMicros);
  // A second batch with it is refused; so is a hold now; nothing changes.
  await assert.rejects(
    approveBatch(db, { month: "2026-11", payoutIds: [payoutId], actor: OP, now: now() }),
    (e: Any) => e.code === "payout_already_batched",
  );
  await assert.rejects(
    approveBatch(db, { month: "2026-11", actor: OP, now: now() }),
    (e: Any) => e.code === "nothing_to_pay",
  );
  await assert.rejects(
    reviewHold(db, { payoutId, reason: "late", actor: OP, now: now() }),
    (e: Any) => e.code === "payout_already_batched",
  );
  const batches = await db.execute("SELECT COUNT(*) AS n FROM payout_batches");
  assert.equal(Number(batches.rows[0].n), 1);

  // The payout file: the payee in full, the amount in USD and micros.
  const { csv } = await exportBatch({ db, secret: "payee secret" }, {
    batchId: batch.id,
    actor: OP,
    now: now(),
  });
  const [header, line] = parse(csv) as string[][];
  const cell = (name: string) => line[header.indexOf(name)];
  assert.equal(cell("payout_id"), payoutId);
  assert.equal(cell("iban"), "DE89370400440532013000");
  assert.equal(cell("bic"), "COBADEFFXXX");
  assert.equal(cell("legal_name"), "Demo Media GmbH");
  assert.equal(cell("currency"), "EUR");
  assert.equal(Number(cell("amount_usd_micros")), due.dueMicros);
  assert.equal(cell("amount_usd"), (due.dueMicros / 1e6).toFixed(2));
  assert.equal(cell("remittance"), `Folio payout 2026-11 ${payoutId}`);

  const paidAt = new Date("2026-12-03T00:00:00Z");
  const paid = await markPaid(db, {
    batchId: batch.id,
    paidAt,
    reference: "SEPA-2026-12-03-0001",
    actor: OP,
    now: now(),
    baseUrl: folio.url,
  });
  assert.equal(paid[0].state, "paid");
  for (const twice of [{ payoutId }, { batchId: batch.id }]) {
    await assert.rejects(
      markPaid(db, {
        ...twice,
        paidAt,
        reference: "again",
        actor: OP,
        now: now(),
        baseUrl: folio.url,
      }),
      (e: Any) => e.code === "payout_already_paid",
    );
  }

  // The publisher sees it paid, with the date and the reference; its endpoint gets payout.paid.
  const after: Any = await json(
    await folio.request("/api/publisher/payouts/history", { headers: key(folio) }),
  );
  assert.deepEqual(after.payouts[0], {
    id: payoutId,
    month: "2026-11",
    earnedUsdMicros: earnedMicros,
    state: "paid",
    amountUsdMicros: due.dueMicros,
    holds: [],
    paidAt: paidAt.toISOString(),
    reference: "SEPA-2026-12-03-0001",
  });
  await drainDue(folio.deps, { holder: "t" });
  assert.equal(hits.length, 1);
  assert.equal(hits[0].type, "payout.paid");
  assert.deepEqual(hits[0].data, {
    payoutId,
    month: "2026-11",
    amountMicros: due.dueMicros,
    paidAt: paidAt.toISOString(),
    reference: "SEPA-2026-12-03-0001",
    url: `${folio.url}/publisher/payouts?month=2026-11`,
  });

  // Every step is audited, before and after.
  const steps = await auditOf(folio, payoutId);
  assert.deepEqual(steps.map((s) => s.action), [
    "payout.review_hold",
    "payout.review_released",
    "payout.batched",
    "payout.paid",
  ]);
  assert.equal((steps[3].before as Any).state, "pending");
  assert.equal((steps[3].after as Any).reference, "SEPA-2026-12-03-0001");
  const batchSteps = await auditOf(folio, batch.id);
  assert.deepEqual(batchSteps.map((s) => s.action), [
    "payout_batch.approved",
    "payout_batch.exported",
  ]);
});

/** Records what the buyer's November invoice received (as receivables' payments would). */
async function invoiceState(
  folio: TestFolio,
  buyerId: string,
  state: string,
  paidMicros: number | "all",
  month = "2026-11",
) {
  const db = folio.store.db;
  const seq = await db.execute({
    sql: "SELECT seq FROM invoice_numbers WHERE buyer_id = ? AND month = ?",
    args: [buyerId, month],
  });
  const total = await db.execute({
    sql: `SELECT SUM(price_micros + fee_micros) AS t FROM charges
          WHERE buyer_id = ? AND statement_month = ?`,
    args: [buyerId, month],
  });
  const t = Number(total.rows[0].t);
  await db.execute({
    sql: `INSERT INTO invoices (seq, buyer_id, month, issued_at, due_at, total_micros,
            prepaid_micros, amount_due_micros, paid_micros, state, updated_at)
          VALUES (?, ?, ?, 0, 0, ?, 0, ?, ?, ?, 0)
          ON CONFLICT (buyer_id, month) DO UPDATE SET state = excluded.state,
            paid_micros = excluded.paid_micros`,
    args: [
      Number(seq.rows[0].seq),
      buyerId,
      month,
      t,
      t,
      paidMicros === "all" ? t : paidMicros,
      state,
    ],
  });
  return t;
}

Deno.test("collected basis: a partial payment pays its share, the rest goes with a later payout; an open dispute holds", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  const b = await buyerWithItems(folio, "partial", 3);
  folio.clock.set(new Date("2026-12-01T01:00:00Z"));
  await closeMonth(db, { month: "2026-11", now: folio.clock.now() });
  await (await setPayee(folio)).body?.cancel();
  const share = Number(
    (await db.execute("SELECT amount_micros FROM payouts WHERE month = '2026-11'")).rows[0]
      .amount_micros,
  );
  const total = await invoiceState(folio, b.buyerId, "open", 0);
  let [due] = await payoutsDue(db, "2026-11");
  assert.deepEqual(due.holds.map((h) => h.code), ["nothing_due"], "nothing collected yet");

  // A third paid: a third of the share (rounded down), in whole cents.
  const paid = Math.floor(total / 3);
  await invoiceState(folio, b.buyerId, "partially_paid", paid);
  [due] = await payoutsDue(db, "2026-11");
  const third = Math.floor(share * paid / total);
  assert.equal(due.collectedShareMicros, third);
  assert.equal(due.dueMicros, third - (third % 10_000));
  assert.deepEqual(due.holds, []);

  // A dispute on its items holds every payout of the publisher until it is decided.
  const d = await dispute(folio, b.apiKey, [b.items[0].id]);
  [due] = await payoutsDue(db, "2026-11");
  assert.deepEqual(due.holds.map((h) => h.code), ["dispute_open"]);
  assert.equal(
    (await decide(folio, folio.seeded!.apiKey, d.id, { decision: "refuse", reason: "Read" }))
      .status,
    200,
  );
  const { batch } = await approveBatch(db, { month: "2026-11", actor: OP, now: folio.clock.now() });
  assert.equal(batch.totalMicros, due.dueMicros);

  // The rest is paid later: December's payout carries it beside December's own earnings.
  await invoiceState(folio, b.buyerId, "paid", total);
  folio.clock.set(new Date("2026-12-10T00:00:00Z"));
  const late = await signup(folio, "december");
  assert.equal((await read(folio, late.apiKey, (await paywalled(folio, 1))[0])).status, 200);
  folio.clock.set(new Date("2027-01-01T01:00:00Z"));
  await closeMonth(db, { month: "2026-12", now: folio.clock.now() });
  await invoiceState(folio, late.buyerId, "paid", "all", "2026-12");
  const december = await db.execute({
    sql: "SELECT amount_micros FROM payouts WHERE month = '2026-12'",
    args: [],
  });
  const decShare = Number(december.rows[0].amount_micros);
  const [dec] = await payoutsDue(db, "2026-12");
  assert.equal(dec.payout.month, "2026-12");
  // Everything earned, less what November's batch paid, in whole cents: nothing lost, nothing twice.
  const owed = share + decShare - batch.totalMicros;
  assert.equal(dec.dueMicros, owed - (owed % 10_000));
});
