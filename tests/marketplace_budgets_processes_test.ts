/**
 * Budgets and the cap under load from two processes sharing one store: this test's Folio and a
 * real `deno run main.ts` on the same data directory, 200 reads in flight at once, split between
 * them. Spend must never pass either limit, and exactly the reads that fit are charged.
 */
import assert from "node:assert/strict";
import { manualClock, monthOf } from "../server/platform/clock.ts";
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { secondProcess } from "./processes.ts";

async function spent(folio: TestFolio, buyerId: string, month: string) {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT COALESCE(SUM(metered_micros), 0) AS s,
            (SELECT COUNT(*) FROM charges WHERE buyer_id = ?1 AND kind = 'metered') AS n
          FROM monthly_spend WHERE buyer_id = ?1 AND month = ?2 AND publisher_id = 'pub_demo'`,
    args: [buyerId, month],
  });
  return { micros: Number(rs.rows[0].s), rows: Number(rs.rows[0].n) };
}

Deno.test("200 concurrent reads from two processes never pass a budget or the cap", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-budget-2p-" });
  try {
    // Both processes must agree on the month: this one runs on the real clock too.
    await using a = await testFolio({ dataDir, clock: manualClock(new Date()) });
    await using b = await secondProcess(dataDir);
    const month = monthOf(new Date());
    const [id] = await paywalled(a);
    // 3 cents a read, and room for the reads that fit plus one cent: budgets are whole cents.
    const price = 30_000;
    const db = a.deps.store.db;
    const publisher = (await getPublisher(db, "pub_demo"))!;
    await updatePublisher(db, {
      ...publisher,
      pricesMicros: { ...publisher.pricesMicros, display: price },
    }, { now: new Date() });
    const limits = [
      { name: "publisher budget", fits: 7, budget: "publisher" },
      { name: "overall budget", fits: 5, budget: "overall" },
      { name: "cap", fits: 3, budget: "none" },
    ] as const;
    for (const [run, limit] of limits.entries()) {
      const { buyerId, apiKey } = await signup(a, `p${run}`);
      const room = limit.fits * price + 10_000;
      if (limit.budget === "none") {
        await a.deps.store.db.execute({
          sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
                VALUES (?, 'pub_demo', ?, ?)`,
          args: [buyerId, month, METERED_CAP_MICROS - room],
        });
      }
      if (limit.budget !== "none") {
        const res = await a.request("/api/marketplace/budgets", {
          method: "PUT",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            ...(limit.budget === "publisher" ? { publisherId: "pub_demo" } : {}),
            monthlyUsdCents: room / 10_000,
          }),
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      }
      const results = await Promise.all(
        Array.from(
          { length: 200 },
          (_, i) => read(i % 2 ? a : b, apiKey, id, `run${run}-${i}`),
        ),
      );
      const served = results.filter((r) => r.status === 200 && r.body.article?.body);
      const limited = results.filter((r) => r.body.status === "license_limited");
      assert.equal(served.length, limit.fits, `${limit.name}: exactly the reads that fit`);
      assert.equal(limited.length, 200 - limit.fits, `${limit.name}: the rest fall back`);
      const after = await spent(a, buyerId, month);
      assert.equal(after.rows, limit.fits, `${limit.name}: one ledger row per charged read`);
      const start = limit.budget === "none" ? METERED_CAP_MICROS - room : 0;
      assert.equal(after.micros, start + limit.fits * price);
      assert.ok(after.micros <= (limit.budget === "none" ? METERED_CAP_MICROS : room));
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
