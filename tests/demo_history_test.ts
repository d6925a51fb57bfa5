/**
 * The demo publisher's 30 days of history (issue 34; server/seed/history.ts): written once at the
 * demo's creation when FOLIO_SEED_HISTORY is on, spread over the 30 days before the clock, the
 * same for the same clock, and consistent: charges add up to the month's spend and the earnings,
 * and every chart and table of the console has something to show.
 */
import assert from "node:assert/strict";
import { seedDemo } from "../server/seed/demo.ts";
import { json, startTestFolio, type TestFolio, testFolio } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

const DAY_MS = 86_400_000;
const HISTORY = { env: { FOLIO_SEED_HISTORY: "1" } };

async function rows(folio: TestFolio, sql: string) {
  return (await folio.store.db.execute(sql)).rows;
}

async function get(folio: TestFolio, path: string): Promise<Body> {
  const res = await folio.request(path, {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  assert.equal(res.status, 200, path);
  return await json<Body>(res);
}

Deno.test("the history spans the 30 days before the clock, in time order, and is the same each time", async () => {
  await using a = await testFolio(HISTORY);
  await using b = await testFolio(HISTORY);
  const h = a.seeded!.history!;
  assert.ok(h.calls > 1_000 && h.charges > 100 && h.intents > 50, JSON.stringify(h));
  const now = a.clock.now().getTime();
  const calls = await rows(a, "SELECT id, at FROM call_log ORDER BY id");
  assert.equal(calls.length, h.calls);
  const at = calls.map((r) => Number(r.at));
  assert.ok(at.every((t) => t < now && t >= Math.floor(now / DAY_MS) * DAY_MS - 29 * DAY_MS));
  assert.deepEqual(at, [...at].sort((x, y) => x - y), "ids grow with time, as live");
  const days = new Set(at.map((t) => Math.floor(t / DAY_MS)));
  assert.equal(days.size, 30, "every day has calls");

  const story = (f: TestFolio) =>
    rows(f, "SELECT at, surface, tool, status, http_status, article_id FROM call_log ORDER BY id");
  assert.deepEqual(await story(a), await story(b), "a seeded PRNG: the same past");
  assert.deepEqual(b.seeded!.history, h);
});

Deno.test("the history's charges add up to the month's spend, the earnings and the analytics", async () => {
  await using folio = await testFolio(HISTORY);
  const spend = await rows(
    folio,
    `SELECT c.buyer_id, c.month, SUM(c.price_micros + c.fee_micros) AS charged,
       (SELECT metered_micros FROM monthly_spend s WHERE s.buyer_id = c.buyer_id
         AND s.publisher_id = c.publisher_id AND s.month = c.month) AS spent
     FROM charges c GROUP BY c.buyer_id, c.month`,
  );
  assert.ok(spend.length >= 3, "three buyers");
  for (const r of spend) assert.equal(Number(r.charged), Number(r.spent));

  const byMonth = await rows(
    folio,
    `SELECT statement_month AS m, COUNT(*) AS n, SUM(price_micros) AS p FROM charges
     WHERE publisher_id = 'pub_demo' GROUP BY m`,
  );
  const earnings = await get(folio, "/api/publisher/earnings?months=12");
  for (const r of byMonth) {
    const month = earnings.months.find((m: Body) => m.month === r.m);
    assert.ok(month, `earnings list ${r.m}`);
    assert.equal(month.chargedReads, Number(r.n));
    assert.equal(month.meteredUsdCents + month.landingUsdCents, Math.round(Number(r.p) / 10_000));
  }
  // Every charge is a call that read its article and succeeded.
  const orphans = await rows(
    folio,
    `SELECT COUNT(*) AS n FROM charges ch WHERE NOT EXISTS (SELECT 1 FROM call_log c
       WHERE c.article_id = ch.article_id AND c.at = ch.created_at AND c.status = 'ok')`,
  );
  assert.equal(Number(orphans[0].n), 0);
  const analytics = await get(folio, "/api/publisher/analytics?days=30");
  const total = await rows(folio, "SELECT COUNT(*) AS n FROM charges");
  assert.equal(analytics.totals.chargedReads, Number(total[0].n));
});

Deno.test("with the history every traffic chart and table has something to show", async () => {
  await using folio = await testFolio(HISTORY);
  const traffic = await get(folio, "/api/publisher/analytics/traffic?days=30");
  assert.equal(traffic.series.length, 6);
  const kinds = new Set(traffic.series.map((s: Body) => s.agent.kind));
  for (const k of ["crawler", "buyer", "anonymous"]) assert.ok(kinds.has(k), k);
  assert.ok(traffic.others.total > 0);
  const reads = await get(folio, "/api/publisher/analytics/articles?days=30&by=reads");
  const earned = await get(folio, "/api/publisher/analytics/articles?days=30&by=earnings");
  assert.equal(reads.articles.length, 10);
  assert.ok(earned.articles.filter((a: Body) => a.earningsUsdCents > 0).length >= 5);
  const calls = await get(folio, "/api/publisher/calls?limit=500");
  const outcomes = new Set(calls.calls.map((c: Body) => c.outcome));
  for (const o of ["ok", "priced"]) assert.ok(outcomes.has(o), o);
  assert.ok(calls.calls.some((c: Body) => c.article?.title), "calls name the page they read");
  const intents = await get(folio, "/api/publisher/intents");
  assert.ok(intents.intents.length > 20);
  // The CSV streams every call, across its pages of 2,000 rows, once each.
  const res = await folio.request("/api/publisher/calls/csv", {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  const lines = (await res.text()).trim().split("\r\n");
  assert.equal(lines.length, calls.total + 1);
  assert.equal(new Set(lines).size, lines.length);
});

Deno.test("the history is written only when the demo publisher is created, and only when asked", async () => {
  await using folio = await testFolio(HISTORY);
  const before = await rows(folio, "SELECT COUNT(*) AS n FROM call_log");
  assert.equal(
    await seedDemo(folio.store.db, { now: folio.clock.now(), history: true }),
    null,
    "an existing demo is left as it is",
  );
  assert.deepEqual(await rows(folio, "SELECT COUNT(*) AS n FROM call_log"), before);

  await using plain = await testFolio();
  assert.equal(plain.seeded!.history ?? null, null);
  const none = await rows(plain, "SELECT COUNT(*) AS n FROM call_log");
  assert.equal(Number(none[0].n), 0, "tests start from an empty call log");
});

Deno.test("the start command's history comes after the server answers, whole in one transaction", async () => {
  // With the history asked for, the demo is created by this start, as on a first `task start`.
  await using folio = await startTestFolio({ ...HISTORY, historyAfterListening: true });
  assert.ok(folio.seeded, "this start created the demo");
  assert.equal(folio.seeded.history, null, "not written before the server listened");
  const count = async () =>
    Number(
      (await rows(folio, "SELECT COUNT(*) AS n FROM call_log WHERE publisher_id = 'pub_demo'"))[0]
        .n,
    );
  // Served meanwhile, and every read sees none or all of the history, never part of it.
  const seen = new Set<number>();
  let done = false;
  const written = folio.history.finally(() => {
    done = true;
  });
  while (!done) {
    assert.equal((await folio.request("/api/health")).status, 200);
    seen.add(await count());
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const h = (await written)!;
  assert.ok(h.calls > 1_000 && h.charges > 100, JSON.stringify(h));
  assert.equal(await count(), h.calls);
  for (const n of seen) assert.ok(n === 0 || n === h.calls, `a read saw ${n} of ${h.calls} calls`);
});
