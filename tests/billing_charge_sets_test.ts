/**
 * Charges asked for in one turn are written as one set (store/charges.ts insertChargeWithinCap):
 * each still answers its own spend, the budgets and keys hold as if each were written alone, and
 * a set that fails or is refused is written again one charge at a time.
 */
import assert from "node:assert/strict";
import { chargeRead, type ChargeResult } from "../server/domain/billing/metering.ts";
import { setBudget } from "../store/budgets.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { paywalled, signup } from "./billing_helpers.ts";

const PRICE = 20_000;
const LICENSE = 5_000;

async function buyerWithSpend(folio: TestFolio) {
  const { buyerId } = await signup(folio);
  const [articleId] = await paywalled(folio);
  // A license fee already counted this month: what the budgets count, not the cap.
  await folio.deps.store.db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros, license_micros)
          VALUES (?, 'pub_demo', '2026-11', 0, ?)`,
    args: [buyerId, LICENSE],
  });
  return { buyerId, articleId };
}

/** `n` charges asked for in the same turn, the i-th keyed `keyOf(i)`. */
function charges(
  folio: TestFolio,
  who: { buyerId: string; articleId: string },
  n: number,
  keyOf: (i: number) => string | null = (i) => `k${i}`,
  kindOf: (i: number) => string = () => "metered",
): Promise<PromiseSettledResult<ChargeResult>[]> {
  return Promise.allSettled(Array.from({ length: n }, (_, i) =>
    chargeRead(folio.deps.store.db, {
      buyerId: who.buyerId,
      publisherId: "pub_demo",
      articleId: who.articleId,
      charge: {
        micros: PRICE,
        use: "display",
        kind: kindOf(i) as "metered",
        feeMicros: 0,
      },
      identity: `buyer:${who.buyerId}`,
      surface: "rest",
      idempotencyKey: keyOf(i),
      now: folio.clock.now(),
    })));
}

const charged = (results: PromiseSettledResult<ChargeResult>[]) =>
  results.flatMap((r) => r.status === "fulfilled" && r.value.status === "charged" ? [r.value] : []);

async function ledger(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids,
            (SELECT metered_micros FROM monthly_spend WHERE buyer_id = ?1 AND month = '2026-11')
              AS spent
          FROM charges WHERE buyer_id = ?1 AND kind = 'metered'`,
    args: [buyerId],
  });
  const r = rs.rows[0];
  return { rows: Number(r.n), ids: Number(r.ids), spent: Number(r.spent) };
}

Deno.test("forty charges in one turn each answer the spend as it stood right after their own", async () => {
  await using folio = await testFolio();
  const who = await buyerWithSpend(folio);
  const now = folio.clock.now();
  await setBudget(folio.deps.store.db, who.buyerId, {
    publisherId: "pub_demo",
    monthlyMicros: 10_000_000,
    now,
  });
  await setBudget(folio.deps.store.db, who.buyerId, {
    publisherId: null,
    monthlyMicros: 20_000_000,
    now,
  });
  const results = charged(await charges(folio, who, 40));
  assert.equal(results.length, 40);
  // In the order asked: the i-th saw i + 1 charges' spend, budgets counting the license fee too.
  assert.deepEqual(
    results.map((r) => r.status === "charged" && r.spend.spentMicros),
    results.map((_, i) => (i + 1) * PRICE),
  );
  assert.deepEqual(
    results.map((r) => r.status === "charged" && r.spend.budgetSpentMicros),
    results.map((_, i) => (i + 1) * PRICE + LICENSE),
  );
  assert.deepEqual(
    results.map((r) => r.status === "charged" && r.spend.overallSpentMicros),
    results.map((_, i) => (i + 1) * PRICE + LICENSE),
  );
  assert.ok(results.every((r) => r.status === "charged" && r.spend.publisherBudgetMicros === 10e6));
  assert.ok(results.every((r) => r.status === "charged" && r.spend.overallBudgetMicros === 20e6));
  assert.deepEqual(await ledger(folio, who.buyerId), { rows: 40, ids: 40, spent: 40 * PRICE });
});

Deno.test("a turn's charges past a budget are written one at a time and stop exactly at it", async () => {
  await using folio = await testFolio();
  const who = await buyerWithSpend(folio);
  // Room for ten reads beside the license fee, and 1 micro-dollar over.
  await setBudget(folio.deps.store.db, who.buyerId, {
    publisherId: "pub_demo",
    monthlyMicros: 10 * PRICE + LICENSE + 1,
    now: folio.clock.now(),
  });
  const results = await charges(folio, who, 15);
  const ok = charged(results);
  assert.equal(ok.length, 10);
  assert.equal(
    results.filter((r) => r.status === "fulfilled" && r.value.status === "capped").length,
    5,
  );
  assert.deepEqual(
    ok.map((r) => r.status === "charged" && r.spend.spentMicros).sort((a, b) => +a - +b),
    ok.map((_, i) => (i + 1) * PRICE),
  );
  // Without an overall budget the overall sum is not read.
  assert.ok(ok.every((r) => r.status === "charged" && r.spend.overallSpentMicros === 0));
  assert.deepEqual(await ledger(folio, who.buyerId), { rows: 10, ids: 10, spent: 10 * PRICE });
});

Deno.test("a key asked for twice in one turn is charged once and its retry names that charge", async () => {
  await using folio = await testFolio();
  const who = await buyerWithSpend(folio);
  const results = await charges(folio, who, 12, (i) => i < 2 ? null : `k${i % 5}`);
  const values = results.map((r) => r.status === "fulfilled" ? r.value : null);
  const ok = charged(results);
  // Two without a key, and k0 to k4 once each; the other five are retries.
  assert.equal(ok.length, 7);
  const duplicates = values.filter((v) => v?.status === "duplicate");
  assert.equal(duplicates.length, 5);
  const ids = new Set(ok.map((r) => r.chargeId));
  assert.ok(duplicates.every((d) => d?.status === "duplicate" && ids.has(d.chargeId)));
  assert.deepEqual(await ledger(folio, who.buyerId), { rows: 7, ids: 7, spent: 7 * PRICE });
});

Deno.test("one charge the store refuses fails alone; the rest of its turn is charged", async () => {
  await using folio = await testFolio();
  const who = await buyerWithSpend(folio);
  // The ledger's CHECK refuses the kind: the set's batch fails and rolls back whole.
  const results = await charges(
    folio,
    who,
    9,
    (i) => `k${i}`,
    (i) => i === 4 ? "bogus" : "metered",
  );
  assert.equal(results[4].status, "rejected");
  assert.match(String((results[4] as PromiseRejectedResult).reason), /CHECK constraint/);
  assert.equal(charged(results).length, 8);
  assert.deepEqual(await ledger(folio, who.buyerId), { rows: 8, ids: 8, spent: 8 * PRICE });
});
