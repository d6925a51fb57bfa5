/** Buyer budgets: the API, and reads that stop at a budget exactly as they stop at the cap. */
import assert from "node:assert/strict";
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import { getPublisher } from "../store/publishers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { signUp as publisherSignUp } from "./manage_helpers.ts";

/** A decoded JSON body, read field by field in assertions. */
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function budgets(folio: TestFolio, key: string, body?: unknown) {
  return folio.request("/api/marketplace/budgets", {
    method: body === undefined ? "GET" : "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function displayPriceMicros(folio: TestFolio): Promise<number> {
  return (await getPublisher(folio.deps.store.db, "pub_demo"))!.pricesMicros.display;
}

async function ledgerRows(folio: TestFolio, buyerId: string): Promise<number> {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ? AND kind = 'metered'",
    args: [buyerId],
  });
  return Number(rs.rows[0].n);
}

Deno.test("budgets: set, read back, change and remove, overall and per publisher", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  const empty = await json(await budgets(folio, apiKey));
  assert.deepEqual(empty, {
    month: "2026-11",
    capUsdCents: 100_000,
    overall: {
      monthlyUsdCents: null,
      spentUsdCents: 0,
      readSpendUsdCents: 0,
      remainingUsdCents: null,
    },
    publishers: [],
  });
  await budgets(folio, apiKey, { monthlyUsdCents: 5_000 }).then((r) => r.body?.cancel());
  const set = await budgets(folio, apiKey, { publisherId: "pub_demo", monthlyUsdCents: 1_000 });
  assert.equal(set.status, 200);
  const report = await json<Json>(set);
  assert.deepEqual(report.overall, {
    monthlyUsdCents: 5_000,
    spentUsdCents: 0,
    readSpendUsdCents: 0,
    remainingUsdCents: 5_000,
  });
  assert.deepEqual(report.publishers, [{
    publisherId: "pub_demo",
    publisherName: "The Demo Ledger",
    monthlyUsdCents: 1_000,
    spentUsdCents: 0,
    readSpendUsdCents: 0,
    capUsdCents: 100_000,
    remainingUsdCents: 1_000,
  }]);
  const removed = await json<Json>(
    await budgets(folio, apiKey, { publisherId: "pub_demo", monthlyUsdCents: null }),
  );
  assert.deepEqual(removed.publishers, []);
  assert.equal(removed.overall.monthlyUsdCents, 5_000);
});

Deno.test("budgets: bad input gets a clear 400 or 404 and changes nothing", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio);
  await budgets(folio, apiKey, { monthlyUsdCents: 700 }).then((r) => r.body?.cancel());
  const cases: [unknown, number, RegExp][] = [
    [{ monthlyUsdCents: -1 }, 400, /monthlyUsdCents/],
    [{ monthlyUsdCents: 1.5 }, 400, /monthlyUsdCents/],
    [{ monthlyUsdCents: "100" }, 400, /monthlyUsdCents/],
    [{}, 400, /monthlyUsdCents/],
    [{ monthlyUsdCents: 100_000_001 }, 400, /monthlyUsdCents/],
    [{ monthlyUsdCents: 10, extra: true }, 400, /extra/],
    [{ publisherId: "pub_nope", monthlyUsdCents: 10 }, 404, /Publisher/],
  ];
  for (const [body, status, message] of cases) {
    const res = await budgets(folio, apiKey, body);
    const out = await json<{ error: { message: string } }>(res);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.match(out.error.message, message);
  }
  const bad = await folio.request("/api/marketplace/budgets", {
    method: "PUT",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  const after = await json<Json>(await budgets(folio, apiKey));
  assert.equal(after.overall.monthlyUsdCents, 700, "unchanged");
  assert.equal((await budgets(folio, "mk_wrong")).status, 401);
});

Deno.test("a publisher budget stops charged reads exactly like the cap: summary, no charge", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  const price = await displayPriceMicros(folio);
  const cents = price / 10_000;
  // Room for exactly two reads.
  await budgets(folio, apiKey, { publisherId: "pub_demo", monthlyUsdCents: 2 * cents + cents / 2 })
    .then((r) => r.body?.cancel());
  const first = await read(folio, apiKey, id, "r1");
  assert.ok(first.body.article.body);
  assert.equal(first.headers.get("folio-charged-usd-cents"), String(cents));
  assert.equal(first.headers.get("folio-budget-remaining-usd-cents"), String(cents + cents / 2));
  const second = await read(folio, apiKey, id, "r2");
  assert.equal(second.headers.get("folio-budget-remaining-usd-cents"), String(cents / 2));
  const third = await read(folio, apiKey, id, "r3");
  assert.equal(third.status, 200);
  assert.equal(third.body.status, "license_limited");
  assert.match(third.body.message, /budget/);
  assert.equal(third.body.article.body, undefined, "no body past the budget");
  assert.equal(third.headers.get("folio-charged-usd-cents"), null);
  assert.equal(await ledgerRows(folio, buyerId), 2);
  // A retry of a read already paid for is still served and not billed again.
  const retry = await read(folio, apiKey, id, "r1");
  assert.ok(retry.body.article?.body ?? retry.body.status);
  assert.equal(await ledgerRows(folio, buyerId), 2);

  // Raising the budget lets reads through again at once.
  await budgets(folio, apiKey, { publisherId: "pub_demo", monthlyUsdCents: 100 * cents })
    .then((r) => r.body?.cancel());
  assert.ok((await read(folio, apiKey, id, "r4")).body.article.body);
  const report = await json<Json>(await budgets(folio, apiKey));
  assert.equal(report.publishers[0].spentUsdCents, 3 * cents);
  assert.equal(report.publishers[0].remainingUsdCents, 97 * cents);
});

Deno.test("the overall budget counts spend with every publisher together", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const other = await publisherSignUp(folio, { slug: "other-news" });
  const [id] = await paywalled(folio);
  const price = await displayPriceMicros(folio);
  // Spend already made with another publisher this month leaves room for one demo read.
  await folio.deps.store.db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
          VALUES (?, ?, '2026-11', ?)`,
    args: [buyerId, other.publisherId, 1_000_000],
  });
  await budgets(folio, apiKey, { monthlyUsdCents: (1_000_000 + price) / 10_000 })
    .then((r) => r.body?.cancel());
  assert.ok((await read(folio, apiKey, id, "o1")).body.article.body);
  const stopped = await read(folio, apiKey, id, "o2");
  assert.equal(stopped.body.status, "license_limited");
  const report = await json<Json>(await budgets(folio, apiKey));
  assert.equal(report.overall.remainingUsdCents, 0);
  assert.deepEqual(
    report.publishers.map((p: { publisherId: string }) => p.publisherId).sort(),
    [
      other.publisherId,
      "pub_demo",
    ].sort(),
  );
});

Deno.test("a budget above the cap leaves the cap in charge, and the header shows the cap's room", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  const price = await displayPriceMicros(folio);
  await folio.deps.store.db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
          VALUES (?, 'pub_demo', '2026-11', ?)`,
    args: [buyerId, METERED_CAP_MICROS - price],
  });
  await budgets(folio, apiKey, { monthlyUsdCents: 10_000_000 }).then((r) => r.body?.cancel());
  const last = await read(folio, apiKey, id, "c1");
  assert.equal(last.headers.get("folio-budget-remaining-usd-cents"), "0");
  const capped = await read(folio, apiKey, id, "c2");
  assert.match(capped.body.message, /cap/);
});
