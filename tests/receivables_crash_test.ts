/**
 * Payment recording under kill -9 (issue 38 "How it is judged"): a process recording payments is
 * killed mid-run, then two processes record them all again (each trying every key) on the same
 * store. Nothing a process reported recorded is lost, no key is recorded twice, and the invoice,
 * its payments, the credit an overpayment left and the audit log agree to the micro-dollar.
 */
import assert from "node:assert/strict";
import { runBillingCron } from "../server/domain/billing/close.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { testFolio } from "./helpers.ts";
import { killAfter, output, spawnFixture, stepsOf } from "./crash_helpers.ts";

const FIXTURE = new URL("./fixtures/record_payments.ts", import.meta.url).pathname;

Deno.test({
  name: "payments under kill -9, with one process and then two on the store",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using folio = await testFolio();
    const db = folio.deps.store.db;
    const { buyerId, apiKey } = await signup(folio, "crash");
    const [a, b] = await paywalled(folio, 2);
    folio.clock.set("2026-11-20T12:00:00Z");
    for (let i = 0; i < 40; i++) {
      assert.equal((await read(folio, apiKey, i % 2 ? a : b)).status, 200);
    }
    folio.clock.set("2026-12-01T00:30:00Z");
    await runBillingCron(db, {
      holder: "t",
      now: folio.clock.now(),
      ttlMs: 1,
      receivables: receivablesSettings(folio.deps.config),
    });
    const inv = (await db.execute({
      sql: "SELECT seq, amount_due_micros FROM invoices WHERE buyer_id = ?",
      args: [buyerId],
    })).rows[0];
    const seq = Number(inv.seq);
    const due = Number(inv.amount_due_micros);
    // Twelve payments of an eighth each (in whole cents): the ninth overpays, the rest are refused.
    const part = Math.ceil(due / 8 / 10_000) * 10_000;
    const payments = Array.from({ length: 12 }, (_, i) => `${seq}:${part}:crash-${i}`);

    const killed = stepsOf(
      await killAfter(
        spawnFixture(FIXTURE, [folio.deps.store.url, ...payments], true),
        "recorded ",
        3,
      ),
      "recorded ",
    );
    assert.ok(killed.length >= 3);
    const stored = async () =>
      new Set((await db.execute({
        sql: "SELECT idempotency_key FROM invoice_payments WHERE invoice_seq = ?",
        args: [seq],
      })).rows.map((r) => String(r.idempotency_key)));
    const afterKill = await stored();
    for (const key of killed) assert.ok(afterKill.has(key), `${key} was reported recorded`);
    assert.ok(afterKill.size < 9, "the kill came before the end");

    // Two processes record every payment again, racing, one from each end.
    const [x, y] = await Promise.all([
      output(spawnFixture(FIXTURE, [folio.deps.store.url, ...payments])),
      output(spawnFixture(FIXTURE, [folio.deps.store.url, ...[...payments].reverse()])),
    ]);
    const won = [...x, ...y].filter((l) => l.startsWith("recorded ")).map((l) => l.slice(9));
    assert.equal(new Set(won).size, won.length, "no key recorded by both");
    for (const key of won) assert.ok(!afterKill.has(key), `${key} recorded twice`);

    const rows = (await db.execute({
      sql: `SELECT idempotency_key, amount_micros, applied_micros FROM invoice_payments
            WHERE invoice_seq = ?`,
      args: [seq],
    })).rows;
    assert.equal(rows.length, afterKill.size + won.length, "one row per recorded key");
    assert.ok(rows.length >= 8, "enough recorded to pay the invoice");
    const applied = rows.reduce((t, r) => t + Number(r.applied_micros), 0);
    const paid = rows.reduce((t, r) => t + Number(r.amount_micros), 0);
    const invoice = (await db.execute({
      sql: "SELECT state, paid_micros FROM invoices WHERE seq = ?",
      args: [seq],
    })).rows[0];
    assert.equal(String(invoice.state), "paid");
    assert.equal(Number(invoice.paid_micros), due);
    assert.equal(applied, due, "payments settle exactly the amount due");
    const credit = (await db.execute({
      sql: `SELECT COUNT(*) AS n, COALESCE(SUM(amount_micros), 0) AS s FROM buyer_credits
            WHERE buyer_id = ? AND source = 'overpayment'`,
      args: [buyerId],
    })).rows[0];
    assert.equal(Number(credit.s), paid - due, "the overpayment, once, as credit");
    assert.equal(Number(credit.n), paid > due ? 1 : 0);
    const audited = (await db.execute({
      sql: `SELECT COUNT(*) AS n FROM audit_log WHERE action = 'invoice.payment_recorded'
            AND subject_id = ?`,
      args: [`FOLIO-${String(seq).padStart(6, "0")}`],
    })).rows[0];
    assert.equal(Number(audited.n), rows.length, "every payment audited once");
  },
});
