/** Metered reads: the cap under concurrency on two nodes, idempotency, price snapshots, months. */
import assert from "node:assert/strict";
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { pool } from "../scripts/pool.ts";

async function setDisplayPrice(folio: TestFolio, micros: number) {
  const db = folio.deps.store.db;
  const p = (await getPublisher(db, "pub_demo"))!;
  await updatePublisher(db, { ...p, pricesMicros: { ...p.pricesMicros, display: micros } }, {
    now: folio.clock.now(),
  });
}

async function rows(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT price_micros, month, idempotency_key FROM charges
          WHERE buyer_id = ? AND kind = 'metered' ORDER BY rowid`,
    args: [buyerId],
  });
  return rs.rows.map((r) => ({
    price: Number(r.price_micros),
    month: String(r.month),
    key: r.idempotency_key,
  }));
}

async function spend(folio: TestFolio, buyerId: string, month: string): Promise<number> {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT metered_micros FROM monthly_spend WHERE buyer_id = ? AND month = ?",
    args: [buyerId, month],
  });
  return rs.rows[0] ? Number(rs.rows[0].metered_micros) : 0;
}

Deno.test("200 metered reads over 20 concurrent connections on two instances never pass the cap and charge exactly what fits", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-cap-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir, env: { FOLIO_SEED: "0" } });
    const [id] = await paywalled(a);
    const db = a.deps.store.db;
    for (let run = 0; run < 4; run++) {
      const { buyerId, apiKey } = await signup(a, run);
      const price = 10_000 + Math.floor(Math.random() * 90_000);
      await setDisplayPrice(a, price);
      const fits = 1 + Math.floor(Math.random() * 5);
      const remaining = fits * price + Math.floor(Math.random() * price);
      await db.execute({
        sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
              VALUES (?, 'pub_demo', '2026-11', ?)`,
        args: [buyerId, METERED_CAP_MICROS - remaining],
      });
      const results = await pool(200, 20, (i) => read(i % 2 ? a : b, apiKey, id, `run${run}-${i}`));
      const full = results.filter((r) => r.status === 200 && !r.body.status);
      const limited = results.filter((r) => r.body.status === "license_limited");
      assert.equal(full.length, fits, `run ${run}: successes = floor(remaining/price)`);
      assert.equal(limited.length, 200 - fits);
      assert.ok(limited.every((r) => !r.body.article?.body), "no body past the cap");
      const ledger = await rows(a, buyerId);
      assert.equal(ledger.length, fits);
      assert.ok(ledger.every((r) => r.price === price));
      const final = await spend(a, buyerId, "2026-11");
      assert.ok(final <= METERED_CAP_MICROS, "never past the cap");
      assert.equal(final, METERED_CAP_MICROS - remaining + fits * price);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a retried read with the same Idempotency-Key is charged once, sequentially and concurrently, on two nodes", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-idem-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir, env: { FOLIO_SEED: "0" } });
    const { buyerId, apiKey } = await signup(a);
    const [id, other] = await paywalled(a, 2);
    const seq = [await read(a, apiKey, id, "k-seq"), await read(a, apiKey, id, "k-seq")];
    assert.deepEqual(
      { status: seq[0].status, body: seq[0].body },
      { status: seq[1].status, body: seq[1].body },
      "identical status and body",
    );
    const onB = await read(b, apiKey, id, "k-seq");
    assert.deepEqual(onB.body.article, seq[0].body.article, "the other node serves the same");
    const conc = await Promise.all(
      Array.from({ length: 10 }, (_, i) => read(i % 2 ? a : b, apiKey, id, "k-conc")),
    );
    assert.ok(conc.every((r) => r.status === 200 && r.body.article?.body));
    assert.equal((await rows(a, buyerId)).length, 2, "one row per key");

    const reuse = await read(a, apiKey, other, "k-seq");
    assert.equal(reuse.status, 409, "same key, different article");
    assert.equal(reuse.body.status, "idempotency_key_reused");
    assert.equal((await rows(a, buyerId)).length, 2, "and no charge");

    await read(a, apiKey, id);
    await read(a, apiKey, id);
    assert.equal((await rows(a, buyerId)).length, 4, "without a key each read is billed");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a price change never alters a past charge", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  await read(folio, apiKey, id);
  await setDisplayPrice(folio, 70_000);
  await read(folio, apiKey, id);
  await setDisplayPrice(folio, 5_000);
  assert.deepEqual((await rows(folio, buyerId)).map((r) => r.price), [20_000, 70_000]);
  const st = await folio.request("/api/marketplace/statement", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal((await json(st)).meteredUsdCents, 9, "2 + 7 cents, never re-priced");
});

Deno.test("a month's spend row gone under a process that saw it is made again and the read charged", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  assert.equal((await read(folio, apiKey, id)).status, 200);
  // Nothing in Folio deletes a spend row; the charge write must still not trust its memory of one.
  await folio.deps.store.db.execute({
    sql: "DELETE FROM monthly_spend WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal((await read(folio, apiKey, id)).status, 200);
  const month = (await rows(folio, buyerId))[0].month;
  assert.equal((await rows(folio, buyerId)).length, 2);
  assert.equal(await spend(folio, buyerId, month), 20_000, "the second read, on a new row");
});

Deno.test("reads either side of midnight UTC land in different months and the cap resets at 00:00", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio);
  const [id] = await paywalled(folio);
  await folio.deps.store.db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
          VALUES (?, 'pub_demo', '2026-11', ?)`,
    args: [buyerId, METERED_CAP_MICROS - 20_000],
  });
  folio.clock.set("2026-11-30T23:59:59.999Z");
  assert.equal((await read(folio, apiKey, id)).status, 200);
  const capped = await read(folio, apiKey, id);
  assert.equal(capped.body.status, "license_limited", "November is at the cap");
  folio.clock.set("2026-12-01T00:00:00.000Z");
  const fresh = await read(folio, apiKey, id);
  assert.equal(fresh.status, 200);
  assert.ok(fresh.body.article.body, "December starts a new cap");
  assert.deepEqual((await rows(folio, buyerId)).map((r) => r.month), ["2026-11", "2026-12"]);
  assert.equal(await spend(folio, buyerId, "2026-11"), METERED_CAP_MICROS);
  assert.equal(await spend(folio, buyerId, "2026-12"), 20_000);
});

Deno.test("200 simultaneous chargeRead() calls from two store clients stop exactly at the cap", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-cap2-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir, env: { FOLIO_SEED: "0" } });
    const { chargeRead } = await import("../server/domain/billing/metering.ts");
    const { buyerId } = await signup(a);
    const [articleId] = await paywalled(a);
    const price = 33_333;
    await a.deps.store.db.execute({
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, 'pub_demo', '2026-11', ?)`,
      args: [buyerId, METERED_CAP_MICROS - 7 * price - 1],
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        chargeRead((i % 2 ? a : b).deps.store.db, {
          buyerId,
          publisherId: "pub_demo",
          articleId,
          charge: { micros: price, use: "display", kind: "metered", feeMicros: 0 },
          identity: `buyer:${buyerId}`,
          surface: "rest",
          // 200 calls, 150 distinct keys: 50 are retries racing their first attempt.
          idempotencyKey: `k${i % 150}`,
          now: a.clock.now(),
        })),
    );
    assert.equal(results.filter((r) => r.status === "charged").length, 7);
    assert.equal((await rows(a, buyerId)).length, 7);
    assert.equal(await spend(a, buyerId, "2026-11"), METERED_CAP_MICROS - 1);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("reads straddling midnight UTC on two nodes are each charged to their own month, concurrently", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-midnight-" });
  try {
    await using a = await testFolio({ dataDir });
    await using b = await testFolio({ dataDir, env: { FOLIO_SEED: "0" } });
    const { buyerId, apiKey } = await signup(a);
    const [id] = await paywalled(a);
    a.clock.set("2026-11-30T23:59:59.999Z");
    b.clock.set("2026-12-01T00:00:00.000Z");
    const results = await pool(200, 20, (i) => read(i % 2 ? a : b, apiKey, id, `m${i}`));
    assert.ok(results.every((r) => r.status === 200 && r.body.article?.body));
    const rs = await a.deps.store.db.execute({
      sql: `SELECT month, statement_month, COUNT(*) AS n FROM charges WHERE buyer_id = ?
            GROUP BY month, statement_month ORDER BY month`,
      args: [buyerId],
    });
    assert.deepEqual(rs.rows.map((r) => [r.month, r.statement_month, Number(r.n)]), [
      ["2026-11", "2026-11", 100],
      ["2026-12", "2026-12", 100],
    ]);
    assert.equal(await spend(a, buyerId, "2026-11"), 100 * 20_000);
    assert.equal(await spend(a, buyerId, "2026-12"), 100 * 20_000);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
