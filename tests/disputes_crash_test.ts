/**
 * A credit note under kill -9 (issue 38 "How it is judged"): a process deciding disputes is killed
 * mid-run, then two processes decide the rest (and race on every one) on the same store. Nothing
 * a process reported decided is lost; no dispute has two notes, no item two credits; the notes'
 * numbers run without a gap; each note's items, the dispute and the credit balance agree.
 */
import assert from "node:assert/strict";
import { closeMonth } from "../server/domain/billing/close.ts";
import { testFolio } from "./helpers.ts";
import { killAfter, output, spawnFixture, stepsOf } from "./crash_helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { type Body, call, dispute } from "./dispute_helpers.ts";

const FIXTURE = new URL("./fixtures/decide_disputes.ts", import.meta.url).pathname;

Deno.test({
  name: "credit notes under kill -9, with one process and then two on the store",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using folio = await testFolio();
    const db = folio.deps.store.db;
    const { buyerId, apiKey } = await signup(folio, "crash");
    const [article] = await paywalled(folio, 1);
    // October's reads end on a closed statement (credit balance); November's on the open one.
    folio.clock.set("2026-10-20T12:00:00Z");
    for (let i = 0; i < 20; i++) assert.equal((await read(folio, apiKey, article)).status, 200);
    folio.clock.set("2026-11-02T12:00:00Z");
    await closeMonth(db, { month: "2026-10", now: folio.clock.now() });
    for (let i = 0; i < 20; i++) assert.equal((await read(folio, apiKey, article)).status, 200);
    const items = (await call(folio, apiKey, "GET", "/api/marketplace/items?limit=100")).body.items;
    const ids: string[] = [];
    for (const item of items as Body[]) ids.push((await dispute(folio, apiKey, [item.id])).id);

    const killed = stepsOf(
      await killAfter(spawnFixture(FIXTURE, [folio.deps.store.url, ...ids], true), "decided ", 3),
      "decided ",
    );
    assert.ok(killed.length >= 3);
    const after = await db.execute("SELECT id FROM disputes WHERE state <> 'open'");
    const decidedNow = new Set(after.rows.map((r) => String(r.id)));
    for (const id of killed) assert.ok(decidedNow.has(id), `${id} was reported decided`);
    assert.ok(decidedNow.size < ids.length, "the kill came before the end");

    // Two processes decide the rest, both trying every dispute, the killed one's first.
    const [a, b] = await Promise.all([
      output(spawnFixture(FIXTURE, [folio.deps.store.url, ...ids])),
      output(spawnFixture(FIXTURE, [folio.deps.store.url, ...[...ids].reverse()])),
    ]);
    const won = [...a, ...b].filter((l) => l.startsWith("decided ")).map((l) => l.slice(8));
    assert.equal(won.length + decidedNow.size, ids.length, "each decided exactly once");
    assert.equal(new Set(won).size, won.length);

    const notes = await db.execute(
      `SELECT n.seq, n.id, n.amount_micros, n.applied_to, d.credited_micros, d.disputed_micros,
         (SELECT COALESCE(SUM(price_micros + fee_micros), 0) FROM charges c
           WHERE c.credit_note_id = n.id) AS items,
         (SELECT COUNT(*) FROM charges c WHERE c.credit_note_id = n.id) AS rows
       FROM credit_notes n JOIN disputes d ON d.id = n.dispute_id ORDER BY n.seq`,
    );
    assert.equal(notes.rows.length, ids.length, "one note per dispute");
    const first = Number(notes.rows[0].seq);
    notes.rows.forEach((r, i) => {
      assert.equal(Number(r.seq), first + i, "numbers without a gap");
      assert.equal(Number(r.items), -Number(r.amount_micros));
      assert.equal(Number(r.rows), 1);
      assert.equal(Number(r.credited_micros), Number(r.amount_micros));
      assert.equal(Number(r.amount_micros), Number(r.disputed_micros) - 1);
    });
    const balance = notes.rows.filter((r) => r.applied_to === "balance");
    assert.equal(balance.length, 20, "October's items credited to the balance");
    const credits = await db.execute({
      sql: `SELECT COUNT(*) AS n, SUM(amount_micros) AS s FROM buyer_credits
            WHERE buyer_id = ? AND source = 'credit_note'`,
      args: [buyerId],
    });
    assert.equal(Number(credits.rows[0].n), 20);
    assert.equal(
      Number(credits.rows[0].s),
      balance.reduce((t, r) => t + Number(r.amount_micros), 0),
    );
    const twice = await db.execute(
      "SELECT credit_of FROM charges WHERE credit_of IS NOT NULL GROUP BY credit_of HAVING COUNT(*) > 1",
    );
    assert.equal(twice.rows.length, 0);
    // The open statement reconciles with its items.
    const st = await call(folio, apiKey, "GET", "/api/marketplace/statement?month=2026-11");
    const its = await call(
      folio,
      apiKey,
      "GET",
      "/api/marketplace/items?statementMonth=2026-11&limit=1",
    );
    assert.equal(st.body.totalUsdMicros, its.body.matching.amountUsdMicros);
  },
});
