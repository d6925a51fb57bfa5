/**
 * Billing figures (docs/TEST-PLAN.md section 3 "Figures"): the cap under concurrency on two instances of
 * one store, and idempotent retries. Run: deno run -A scripts/bench_billing.ts [runs]
 */
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { startTestFolio, type TestFolio } from "../tests/helpers.ts";
import { pool } from "./pool.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { check, type Checked, line, tally, TARGETS } from "./targets.ts";

const RUNS = Number(Deno.args[0] ?? 50);
const K = 200;
const WIDTH = 20;

async function read(folio: TestFolio, key: string, id: string, idem: string) {
  const res = await folio.request(`/api/v1/articles/${id}?last_user_prompt=q`, {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${key}`, "idempotency-key": idem },
  });
  const body = await res.json();
  return res.status === 200 && !body.status;
}

// Buyers are created in the store: the signup route's per-address throttle would stop a long run.
const buyer = (name: string, email: string) =>
  createBuyer(a.deps.store.db, { name, email }, { now: a.clock.now() });

const dataDir = await Deno.makeTempDir({ prefix: "folio-bench-" });
const a = await startTestFolio({ dataDir });
const b = await startTestFolio({ dataDir, env: { FOLIO_SEED: "0" } });
try {
  const db = a.deps.store.db;
  const rs = await db.execute(
    "SELECT id FROM articles WHERE policy = 'PAYWALL' AND price_micros IS NULL LIMIT 1",
  );
  const id = String(rs.rows[0].id);
  let maxOver = -Infinity;
  let exact = 0;
  let dupes = 0;
  const started = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const s = await buyer(`bench ${run}`, `b${run}@bench.test`);
    const price = 1 + Math.floor(Math.random() * 200_000);
    const p = (await getPublisher(db, "pub_demo"))!;
    await updatePublisher(db, { ...p, pricesMicros: { ...p.pricesMicros, display: price } }, {
      now: a.clock.now(),
    });
    const remaining = Math.floor(Math.random() * Math.min(price * 50, METERED_CAP_MICROS));
    await db.execute({
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, 'pub_demo', '2026-11', ?)`,
      args: [s.buyerId, METERED_CAP_MICROS - remaining],
    });
    const ok = await pool(K, WIDTH, (i) => read(i % 2 ? a : b, s.apiKey, id, `r${run}-${i}`));
    const spend = Number(
      (await db.execute({
        sql: "SELECT metered_micros FROM monthly_spend WHERE buyer_id = ?",
        args: [s.buyerId],
      })).rows[0].metered_micros,
    );
    maxOver = Math.max(maxOver, spend - METERED_CAP_MICROS);
    const expected = Math.min(K, Math.floor(remaining / price));
    if (ok.filter(Boolean).length === expected) exact++;
    const d = await db.execute({
      sql: `SELECT COUNT(*) - COUNT(DISTINCT idempotency_key) AS d FROM charges WHERE buyer_id = ?`,
      args: [s.buyerId],
    });
    dupes += Number(d.rows[0].d);
  }
  const secs = (performance.now() - started) / 1000;
  const checks: Checked[] = [];
  const say = (c: Checked, shown?: string) => (checks.push(c), console.log(line(c, shown)));
  console.log(
    `Cap: K=${K} reads over ${WIDTH} connections on 2 instances x R=${RUNS} runs (random prices), ` +
      `${secs.toFixed(1)} s`,
  );
  const over = Math.max(0, maxOver);
  say(check("max(spend - cap)", over, TARGETS.billingCapOver), `${over} micros`);
  say(
    check("runs with floor(remaining/price) successes", exact / RUNS, TARGETS.billingExactRuns),
    `${exact}/${RUNS}`,
  );
  say(check("duplicate idempotency keys in the ledger", dupes, TARGETS.billingDuplicates));

  // Idempotent retries: 100 unique keys, each sent 10 times, 10-way concurrent, both nodes.
  const s = await buyer("retries", "retries@bench.test");
  await pool(1000, 10, (i) => read(i % 2 ? a : b, s.apiKey, id, `key-${i % 100}`));
  const r = await db.execute({
    sql: `SELECT COUNT(*) AS n, COUNT(DISTINCT idempotency_key) AS u FROM charges
          WHERE buyer_id = ?`,
    args: [s.buyerId],
  });
  const rows = Number(r.rows[0].n);
  console.log("Idempotent retries: N=1,000 (10-way concurrent, 2 instances)");
  say(check("ledger rows", rows, TARGETS.billingRetryRows));
  say(check("duplicates", rows - Number(r.rows[0].u), TARGETS.billingDuplicates));
  console.log(tally(checks));
} finally {
  await a[Symbol.asyncDispose]();
  await b[Symbol.asyncDispose]();
  await Deno.remove(dataDir, { recursive: true });
}
