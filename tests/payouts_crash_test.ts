/**
 * A payout batch under kill -9 (issue 38 "How it is judged"): a process approving and paying
 * payouts is killed mid-run, then two processes run the rest (racing on every payout) on the same
 * store. Nothing a process reported batched or paid is lost; no payout is in two batches or paid
 * twice; each batch's total is its payouts'; every publisher is paid exactly what it was due.
 */
import assert from "node:assert/strict";
import { closeMonth } from "../server/domain/billing/close.ts";
import { savePayee } from "../server/domain/billing/payees.ts";
import { payoutsDue } from "../server/domain/billing/payouts_due.ts";
import { testFolio } from "./helpers.ts";
import { killAfter, output, spawnFixture } from "./crash_helpers.ts";
import { signup } from "./billing_helpers.ts";
import { signUp } from "./manage_helpers.ts";
import { payInvoices } from "./payout_helpers.ts";

const FIXTURE = new URL("./fixtures/run_payouts.ts", import.meta.url).pathname;
const PUBLISHERS = 10;

Deno.test({
  name: "a payout run under kill -9, with one process and then two on the store",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using folio = await testFolio({ env: { FOLIO_PAYEE_KEY_SECRET: "s" } });
    const db = folio.deps.store.db;
    const { buyerId } = await signup(folio, "crash");
    // Ten publishers, each with November charges of its own amount, and payee details.
    const created = folio.clock.now().getTime();
    for (let i = 0; i < PUBLISHERS; i++) {
      const { publisherId } = await signUp(folio, { slug: `crash-${i}` });
      for (let j = 0; j < 3; j++) {
        await db.execute({
          sql: `INSERT INTO charges (id, buyer_id, publisher_id, kind, price_micros, fee_micros,
                  month, statement_month, identity, surface, created_at)
                VALUES (?, ?, ?, 'metered', ?, 0, '2026-11', '2026-11', 'key', 'rest', ?)`,
          args: [`chg_crash_${i}_${j}`, buyerId, publisherId, 1_234_567 * (i + 1), created],
        });
      }
      await savePayee({ db, secret: "s", now: folio.clock.now() }, publisherId, {
        legalName: `Crash ${i}`,
        country: "US",
        currency: "USD",
        method: "email",
        provider: "wise",
        email: `pay${i}@crash.test`,
      }, { kind: "publisher", id: publisherId });
    }
    folio.clock.set("2026-12-01T01:00:00Z");
    await closeMonth(db, { month: "2026-11", now: folio.clock.now() });
    await payInvoices(folio, "2026-11");
    const due = (await payoutsDue(db, "2026-11")).filter((d) =>
      d.payout.publisherId !== "pub_demo"
    );
    assert.equal(due.length, PUBLISHERS);
    assert.ok(due.every((d) => d.holds.length === 0 && d.dueMicros > 0));
    const ids = due.map((d) => d.payout.id);
    const owed = new Map(due.map((d) => [d.payout.id, d.dueMicros]));

    const said = await killAfter(
      spawnFixture(FIXTURE, [folio.deps.store.url, "2026-11", ...ids], true),
      "paid ",
      3,
    );
    const rows = async () =>
      (await db.execute({
        sql: `SELECT id, batch_id, paid_micros, state, reference FROM payouts
              WHERE id IN (${ids.map(() => "?").join(", ")})`,
        args: ids,
      })).rows;
    const before = new Map((await rows()).map((r) => [String(r.id), r]));
    for (const l of said) {
      const [what, id] = l.split(" ");
      if (what === "batched") assert.ok(before.get(id)!.batch_id, `${id} was reported batched`);
      if (what === "paid") assert.equal(before.get(id)!.state, "paid", `${id} reported paid`);
    }
    const paidBefore = [...before.values()].filter((r) => r.state === "paid").length;
    assert.ok(paidBefore >= 3 && paidBefore < PUBLISHERS, "the kill came mid-run");

    // Two processes run them all, in opposite orders, racing on each.
    const [a, b] = await Promise.all([
      output(spawnFixture(FIXTURE, [folio.deps.store.url, "2026-11", ...ids])),
      output(spawnFixture(FIXTURE, [folio.deps.store.url, "2026-11", ...[...ids].reverse()])),
    ]);
    const batchedNow = [...a, ...b].filter((l) => l.startsWith("batched ")).map((l) =>
      l.split(" ")[1]
    );
    const batchedBefore = [...before.values()].filter((r) => r.batch_id).length;
    assert.equal(batchedNow.length + batchedBefore, PUBLISHERS, "each batched exactly once");
    assert.equal(new Set(batchedNow).size, batchedNow.length);

    for (const r of await rows()) {
      assert.equal(r.state, "paid");
      assert.equal(Number(r.paid_micros), owed.get(String(r.id)), "paid what was due, once");
      assert.equal(r.reference, `ref-${r.id}`);
    }
    const batches = await db.execute(
      `SELECT b.id, b.total_micros, b.payout_count, COUNT(p.id) AS n, SUM(p.paid_micros) AS s
       FROM payout_batches b LEFT JOIN payouts p ON p.batch_id = b.id GROUP BY b.id`,
    );
    assert.equal(batches.rows.length, PUBLISHERS, "no batch without its payout, none doubled");
    for (const r of batches.rows) {
      assert.equal(Number(r.n), Number(r.payout_count));
      assert.equal(Number(r.s), Number(r.total_micros));
    }
    // Each paid once in the audit, and nothing more is due.
    const audited = await db.execute(
      "SELECT subject_id, COUNT(*) AS n FROM audit_log WHERE action = 'payout.paid' GROUP BY subject_id",
    );
    assert.equal(audited.rows.length, PUBLISHERS);
    assert.ok(audited.rows.every((r) => Number(r.n) === 1));
    const left = (await payoutsDue(db, "2026-11")).filter((d) => ids.includes(d.payout.id));
    assert.equal(left.length, 0);
  },
});
