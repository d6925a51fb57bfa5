/**
 * The operator's payouts and desk over HTTP (issue 38 parts 5 and 6): holds, a review hold, a
 * batch, its file, paid with date and reference, every refusal; the desk's figures reconcile with
 * the statements, payout statements, invoices and payouts to the micro-dollar; publisher and
 * buyer credentials are refused.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { closeMonth } from "../server/domain/billing/close.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { bearer } from "./manage_helpers.ts";
import { operatorKey, operatorRequest, signedInOperator } from "./operator_helpers.ts";
import { payInvoices, setPayee } from "./payout_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

async function asOperator(
  folio: TestFolio,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await operatorRequest(folio, method, path, { key }, body);
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") ? JSON.parse(text) : text };
}

Deno.test("the operator runs a payout over the API; the desk reconciles to the micro-dollar", async () => {
  await using folio = await testFolio({ env: { FOLIO_PAYEE_KEY_SECRET: "k" } });
  const { apiKey: opKey } = await operatorKey(folio, await signedInOperator(folio));
  const db = folio.store.db;
  const buyers = [await signup(folio, "one"), await signup(folio, "two")];
  const ids = await paywalled(folio, 3);
  for (const b of buyers) {
    for (const id of ids) assert.equal((await read(folio, b.apiKey, id)).status, 200);
  }
  folio.clock.set(new Date("2026-12-01T01:00:00Z"));
  await closeMonth(db, { month: "2026-11", now: folio.clock.now() });
  await payInvoices(folio, "2026-11");
  const op = (method: string, path: string, body?: unknown) =>
    asOperator(folio, opKey, method, path, body);

  // Publisher and buyer credentials are refused on the operator's routes.
  for (
    const path of ["/api/operator/payouts", "/api/operator/desk", "/api/operator/payout-batches"]
  ) {
    for (const key of [folio.seeded!.apiKey, buyers[0].apiKey]) {
      const res = await folio.request(path, { headers: bearer(key) });
      await res.body?.cancel();
      assert.equal(res.status, 403, `${path} with ${key.slice(0, 3)}`);
    }
  }

  const held = await op("GET", "/api/operator/payouts?month=2026-11&state=held");
  assert.equal(held.status, 200);
  assert.equal(held.body.total, 1);
  const payout = held.body.payouts[0];
  assert.equal(payout.publisherId, "pub_demo");
  assert.deepEqual(payout.holds.map((h: Any) => h.code), ["no_payee_details"]);
  assert.equal(payout.payee, null);
  const refused = await op("POST", "/api/operator/payout-batches", {
    month: "2026-11",
    payoutIds: [payout.id],
  });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, "payout_held");

  await (await setPayee(folio)).body?.cancel();
  const due = await op("GET", "/api/operator/payouts?month=2026-11&state=due");
  assert.equal(due.body.total, 1);
  assert.equal(due.body.payouts[0].payee, "IBAN •••• 3000 (DE, EUR)");
  const amount = due.body.payouts[0].amountUsdMicros;

  const hold = await op("POST", `/api/operator/payouts/${payout.id}/hold`, {
    reason: "new account",
  });
  assert.equal(hold.status, 200);
  assert.equal(hold.body.payout.state, "held");
  assert.equal(hold.body.payout.reviewHold, "new account");
  assert.equal(
    (await op("POST", "/api/operator/payout-batches", { month: "2026-11" })).status,
    409,
  );
  const noReason = await op("POST", `/api/operator/payouts/${payout.id}/hold`, { reason: "" });
  assert.equal(noReason.status, 400);
  const released = await op("POST", `/api/operator/payouts/${payout.id}/release`);
  assert.equal(released.body.payout.state, "due");

  const batch = await op("POST", "/api/operator/payout-batches", { month: "2026-11" });
  assert.equal(batch.status, 201, JSON.stringify(batch.body));
  assert.equal(batch.body.batch.totalUsdMicros, amount);
  assert.equal(batch.body.payouts[0].state, "approved");
  const again = await op("POST", "/api/operator/payout-batches", {
    month: "2026-11",
    payoutIds: [payout.id],
  });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, "payout_already_batched");

  const file = await op("GET", batch.body.batch.fileUrl);
  assert.equal(file.status, 200);
  const [header, row] = parse(file.body) as string[][];
  assert.equal(row[header.indexOf("iban")], "DE89370400440532013000");
  assert.equal(Number(row[header.indexOf("amount_usd_micros")]), amount);

  const bad = await op("POST", `/api/operator/payout-batches/${batch.body.batch.id}/paid`, {
    paidOn: "2026-13-01",
    reference: "x",
  });
  assert.equal(bad.status, 400);
  const paid = await op("POST", `/api/operator/payout-batches/${batch.body.batch.id}/paid`, {
    paidOn: "2026-12-03",
    reference: "SEPA-1",
  });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  assert.equal(paid.body.payouts[0].state, "paid");
  const twice = await op("POST", `/api/operator/payouts/${payout.id}/paid`, {
    paidOn: "2026-12-04",
    reference: "SEPA-2",
  });
  assert.equal(twice.status, 409);
  assert.equal(twice.body.error.code, "payout_already_paid");
  const mine: Any = await json(
    await folio.request("/api/publisher/payouts/history", {
      headers: bearer(folio.seeded!.apiKey),
    }),
  );
  assert.equal(mine.payouts[0].state, "paid");
  assert.equal(mine.payouts[0].paidAt, "2026-12-03T00:00:00.000Z");
  assert.equal(mine.payouts[0].reference, "SEPA-1");

  // The desk reconciles with the statements, the payout statement and the payouts.
  const desk = await op("GET", "/api/operator/desk?month=2026-11&months=3");
  assert.equal(desk.status, 200, JSON.stringify(desk.body));
  const m = desk.body.month;
  assert.equal(desk.body.history.length, 3);
  const statements = await db.execute(
    "SELECT SUM(total_micros) AS t FROM statements WHERE month = '2026-11' AND state = 'closed'",
  );
  assert.equal(m.billedUsdMicros, Number(statements.rows[0].t));
  const ps: Any = await json(
    await folio.request("/api/publisher/payouts?month=2026-11", {
      headers: bearer(folio.seeded!.apiKey),
    }),
  );
  assert.equal(m.billedUsdMicros, ps.totals.grossUsdMicros);
  assert.equal(m.platformFeesUsdMicros, ps.totals.platformFeesUsdMicros);
  assert.equal(m.publishersPricesUsdMicros, ps.totals.netUsdMicros);
  assert.equal(m.payoutsEarnedUsdMicros, ps.totals.netUsdMicros);
  assert.equal(m.publishersPricesUsdMicros + m.platformFeesUsdMicros, m.billedUsdMicros);
  assert.equal(m.payoutsApprovedUsdMicros, amount);
  assert.equal(m.payoutsPaidUsdMicros, amount);
  assert.equal(m.payoutsDueNowUsdMicros, 0);
  // Every invoice's amount due is collected, outstanding, voided or written off.
  const invoiced = await db.execute(
    "SELECT COALESCE(SUM(amount_due_micros), 0) AS t FROM invoices WHERE month = '2026-11'",
  );
  assert.equal(
    m.collectedOnInvoicesUsdMicros + m.outstandingUsdMicros + m.voidUsdMicros +
      m.uncollectibleUsdMicros,
    Number(invoiced.rows[0].t),
  );
  assert.equal(
    m.collectedUsdMicros,
    m.collectedByCardUsdMicros + m.collectedOnInvoicesUsdMicros + m.collectedUntrackedUsdMicros,
  );
  assert.equal(m.state, "closed");
  const csv = await op("GET", "/api/operator/desk/csv?month=2026-11&months=3");
  const [cols, ...months] = parse(csv.body) as string[][];
  assert.equal(months.length, 3);
  const last = months.at(-1)!;
  assert.equal(last[cols.indexOf("month")], "2026-11");
  assert.equal(Number(last[cols.indexOf("billedUsdMicros")]), m.billedUsdMicros);
  assert.equal(Number(last[cols.indexOf("payoutsPaidUsdMicros")]), amount);
});
