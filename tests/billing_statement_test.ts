/** Statements, month close, renewals, leases and payouts (docs/TEST-PLAN.md B9, B10, B15). */
import assert from "node:assert/strict";
import { closeMonth, runBillingCron } from "../server/domain/billing/close.ts";
import { withLease } from "../store/leases.ts";
import { chargeRead } from "../server/domain/billing/metering.ts";
import { buildStatement } from "../server/domain/billing/statement.ts";
import { rollMonth, subscribe } from "../server/domain/billing/subscriptions.ts";
import { monthOf } from "../server/platform/clock.ts";
import { withPlatformFee } from "../server/platform/money.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { ledgerTotal } from "../store/charges.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";

async function articleIds(folio: TestFolio): Promise<string[]> {
  const rs = await folio.deps.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' ORDER BY id LIMIT 5",
  );
  return rs.rows.map((r) => String(r.id));
}

async function meter(
  folio: TestFolio,
  buyerId: string,
  opts: { micros: number; landing?: boolean },
) {
  const [articleId] = await articleIds(folio);
  const { total, fee } = opts.landing
    ? withPlatformFee(opts.micros)
    : { total: opts.micros, fee: 0 };
  return await chargeRead(folio.deps.store.db, {
    buyerId,
    publisherId: "pub_demo",
    articleId,
    charge: {
      micros: total,
      use: "display",
      kind: opts.landing ? "landing" : "metered",
      feeMicros: fee,
    },
    identity: `buyer:${buyerId}`,
    surface: opts.landing ? "landing" : "rest",
    now: folio.clock.now(),
  });
}

Deno.test("over 12 synthetic months every closed statement's total equals its lines and the ledger, to the micro", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  folio.clock.set("2027-01-01T00:00:00Z");
  const buyers = [];
  for (let i = 0; i < 3; i++) {
    buyers.push(
      (await createBuyer(db, { name: `B${i}`, email: `b${i}@x.test` }, {
        now: folio.clock.now(),
      })).buyerId,
    );
  }
  await subscribe({ db, processor: null, baseUrl: "http://x" }, {
    id: buyers[0],
    email: "b0@x.test",
  }, {
    publisherId: "pub_demo",
    useCases: ["rag"],
    now: folio.clock.now(),
  });
  const months: string[] = [];
  let maxDiff = 0;
  for (let m = 0; m < 12; m++) {
    const month = monthOf(folio.clock.now());
    months.push(month);
    for (const buyerId of buyers) {
      for (let k = 0; k < 1 + Math.floor(Math.random() * 8); k++) {
        const micros = 1 + Math.floor(Math.random() * 123_457);
        await meter(folio, buyerId, { micros, landing: Math.random() < 0.3 });
      }
    }
    folio.clock.set(new Date(Date.UTC(2027, m + 1, 1, 0, 5)));
    const cron = await runBillingCron(db, { holder: "node-a", now: folio.clock.now() });
    assert.equal(cron.ran, true);
    for (const buyerId of buyers) {
      const s = await buildStatement(db, buyerId, month);
      assert.equal(s.state, "closed");
      const lines = s.lines.reduce((t, l) => t + l.amountMicros, 0);
      const ledger = await ledgerTotal(db, buyerId, month);
      maxDiff = Math.max(
        maxDiff,
        Math.abs(s.totalMicros - lines),
        Math.abs(s.totalMicros - ledger),
      );
      assert.ok(s.lines.every((l) => l.amountMicros === l.priceMicros + l.feeMicros));
      const landing = s.lines.filter((l) => l.kind === "landing");
      for (const l of landing) {
        assert.ok(l.feeMicros > 0 && l.feeMicros <= Math.ceil(l.priceMicros * 0.047) + l.quantity);
      }
    }
  }
  assert.equal(maxDiff, 0);
  const subs = await db.execute({
    sql: "SELECT month FROM charges WHERE buyer_id = ? AND kind = 'subscription' ORDER BY month",
    args: [buyers[0]],
  });
  assert.deepEqual(subs.rows.map((r) => r.month), [...months, "2028-01"], "one fee per month");
  const payouts = await db.execute(
    "SELECT COUNT(*) AS n FROM payouts WHERE publisher_id = 'pub_demo'",
  );
  assert.equal(Number(payouts.rows[0].n), 12);
});

Deno.test("a closed statement never changes: late usage lands on the next statement as an adjustment", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const { buyerId } = await createBuyer(db, { name: "Late", email: "l@x.test" }, {
    now: folio.clock.now(),
  });
  await meter(folio, buyerId, { micros: 30_000 });
  folio.clock.set("2026-12-01T00:10:00Z");
  assert.deepEqual(await closeMonth(db, { month: "2026-11", now: folio.clock.now() }), {
    statementsClosed: 1,
    payouts: 1,
  });
  const closed = JSON.stringify(await buildStatement(db, buyerId, "2026-11"));

  // A node whose clock lags writes a November read after November closed.
  folio.clock.set("2026-11-30T23:59:00Z");
  await meter(folio, buyerId, { micros: 50_000 });
  folio.clock.set("2026-12-02T00:00:00Z");
  assert.equal(JSON.stringify(await buildStatement(db, buyerId, "2026-11")), closed);
  const dec = await buildStatement(db, buyerId, "2026-12");
  assert.deepEqual(dec.lines.map((l) => [l.kind, l.usageMonth, l.amountMicros]), [
    ["adjustment", "2026-11", 50_000],
  ]);
  assert.match(dec.lines[0].description, /Late metered reads from 2026-11/);

  await assert.rejects(
    db.execute({
      sql: "UPDATE statements SET total_micros = 0 WHERE buyer_id = ?",
      args: [buyerId],
    }),
    /statement is closed/,
  );
  await assert.rejects(
    db.execute({ sql: "DELETE FROM statements WHERE buyer_id = ?", args: [buyerId] }),
    /statement is closed/,
  );
  assert.deepEqual(await closeMonth(db, { month: "2026-11", now: folio.clock.now() }), {
    statementsClosed: 0,
    payouts: 1,
  }, "closing again changes nothing");
  await assert.rejects(closeMonth(db, { month: "2026-12", now: folio.clock.now() }), RangeError);
});

Deno.test("the month roll bills each active licence once per month, however often it runs", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const { buyerId } = await createBuyer(db, { name: "Sub", email: "s@x.test" }, {
    now: folio.clock.now(),
  });
  await subscribe(
    { db, processor: null, baseUrl: "http://x" },
    { id: buyerId, email: "s@x.test" },
    {
      publisherId: "pub_demo",
      useCases: ["display", "summarization"],
      now: folio.clock.now(),
    },
  );
  assert.equal(
    await rollMonth(db, { month: "2026-11", now: folio.clock.now() }),
    0,
    "already billed",
  );
  folio.clock.set("2026-12-01T00:00:00Z");
  const now = folio.clock.now();
  const added = await Promise.all([1, 2, 3].map(() => rollMonth(db, { month: "2026-12", now })));
  assert.equal(added.reduce((a, b) => a + b, 0), 1);
  const rs = await db.execute({
    sql: "SELECT month, price_micros FROM charges WHERE buyer_id = ? ORDER BY month",
    args: [buyerId],
  });
  assert.deepEqual(rs.rows.map((r) => [r.month, Number(r.price_micros)]), [
    // Bought Nov 15 12:00 UTC: the rest of November prorated to the second, then whole months.
    ["2026-11", 56_833_333],
    ["2026-12", 110_000_000],
  ]);
});

Deno.test("withLease() lets one holder run at a time and lets another take an expired lease", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  let runs = 0;
  // The holder that runs keeps the lease until the other call has answered (or, were the lease
  // broken, until both run), so the two always overlap however slowly the machine goes.
  const { promise: otherAnswered, resolve: answered } = Promise.withResolvers<void>();
  const work = async () => {
    if (++runs === 2) answered();
    await otherAnswered;
    return runs;
  };
  const both = await Promise.all(
    ["a", "b"].map((holder) =>
      withLease(db, "job", { holder, ttlMs: 60_000, now }, work).finally(answered)
    ),
  );
  assert.deepEqual(both.map((r) => r.ran).sort(), [false, true]);
  assert.equal(runs, 1);
  // A holder that died leaves its lease behind; it blocks until it expires.
  await db.execute({
    sql: "INSERT INTO cron_leases (name, holder, expires_at) VALUES ('stuck', 'dead', ?)",
    args: [now.getTime() + 1000],
  });
  assert.equal((await withLease(db, "stuck", { holder: "b", ttlMs: 1000, now }, work)).ran, false);
  const later = new Date(now.getTime() + 1001);
  assert.equal(
    (await withLease(db, "stuck", { holder: "b", ttlMs: 1000, now: later }, work)).ran,
    true,
  );
});

Deno.test("publisher earnings show its own prices and the payout; the platform fee is not the publisher's", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const { buyerId } = await createBuyer(db, { name: "E", email: "e@x.test" }, {
    now: folio.clock.now(),
  });
  await meter(folio, buyerId, { micros: 1_000_000 });
  await meter(folio, buyerId, { micros: 1_000_000, landing: true });
  folio.clock.set("2026-12-01T01:00:00Z");
  await closeMonth(db, { month: "2026-11", now: folio.clock.now() });
  const pk = folio.seeded!.apiKey;
  const res = await folio.request("/api/publisher/earnings", {
    headers: { authorization: `Bearer ${pk}` },
  });
  assert.equal(res.status, 200);
  const body = await json<{ months: Record<string, unknown>[] }>(res);
  assert.deepEqual(body.months[0], {
    month: "2026-11",
    meteredUsdCents: 100,
    landingUsdCents: 100,
    subscriptionUsdCents: 0,
    adjustmentsUsdCents: 0,
    earningsUsdCents: 200,
    platformFeesUsdCents: 5,
    chargedReads: 2,
    payout: { state: "pending", amountUsdCents: 200 },
  });
  const anon = await folio.request("/api/publisher/earnings");
  assert.equal(anon.status, 401);
  await anon.body?.cancel();
});

Deno.test("publisher license-request routes list, approve and deny over HTTP", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const pk = folio.seeded!.apiKey;
  const { createLicenseRequest } = await import("../server/domain/billing/license_requests.ts");
  const { buyerId } = await createBuyer(db, { name: "R", email: "r@x.test" }, {
    now: folio.clock.now(),
  });
  const ids = [];
  for (const useCase of ["fine_tuning", "rag"]) {
    ids.push(
      (await createLicenseRequest(db, {
        publisherId: "pub_demo",
        identity: `buyer:${buyerId}`,
        buyerId,
        useCase,
        message: "please <script>alert(1)</script>",
        contact: null,
      }, { now: folio.clock.now() })).requestId,
    );
  }
  const auth = { authorization: `Bearer ${pk}` };
  const list = await json<{ requests: { id: string }[] }>(
    await folio.request("/api/publisher/license-requests?state=pending", { headers: auth }),
  );
  assert.equal(list.requests.length, 2);
  const approve = await folio.request(`/api/publisher/license-requests/${ids[0]}/approve`, {
    method: "POST",
    headers: auth,
  });
  assert.equal(approve.status, 200);
  const offered = await json<{ offer: { kind: string; state: string } }>(approve);
  assert.equal(offered.offer.kind, "request");
  assert.equal(offered.offer.state, "open", "an approval makes an offer; nothing is billed yet");
  const deny = await folio.request(`/api/publisher/license-requests/${ids[1]}/deny`, {
    method: "POST",
    headers: auth,
  });
  assert.equal(deny.status, 200);
  await deny.body?.cancel();
  const again = await folio.request(`/api/publisher/license-requests/${ids[1]}/approve`, {
    method: "POST",
    headers: auth,
  });
  assert.equal(again.status, 409);
  await again.body?.cancel();
  const bad = await folio.request("/api/publisher/license-requests?state=maybe", { headers: auth });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  const unknown = await folio.request("/api/publisher/license-requests/lreq_nope/approve", {
    method: "POST",
    headers: auth,
  });
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});
