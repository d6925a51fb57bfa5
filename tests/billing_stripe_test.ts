/** Checkout and webhooks against a local fake Stripe (docs/TEST-PLAN.md B11-B13). */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { insertLicense, setCheckout } from "../store/licenses.ts";
import { eventBody, signature, startFakeStripe } from "./billing_fake_stripe.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";

async function buyerKey(folio: TestFolio): Promise<{ buyerId: string; apiKey: string }> {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    // One account per email: each call is a new shop.
    body: JSON.stringify({ name: "Shop", email: `shop-${crypto.randomUUID()}@buyer.test` }),
  });
  return await json(res);
}

function subscribeReq(folio: TestFolio, key: string) {
  return folio.request("/api/marketplace/licenses", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["display", "rag"] }),
  });
}

async function count(folio: TestFolio, sql: string): Promise<number> {
  return Number((await folio.deps.store.db.execute(sql)).rows[0].n);
}

function postHook(folio: TestFolio, body: string, sig: string | null) {
  return folio.request("/api/marketplace/webhooks/stripe", {
    method: "POST",
    headers: { "content-type": "application/json", ...(sig ? { "stripe-signature": sig } : {}) },
    body,
  });
}

Deno.test("with Stripe configured a subscription answers a checkoutUrl and a double-click opens one session", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const { apiKey } = await buyerKey(folio);
  const answers = await Promise.all(
    Array.from({ length: 5 }, async () => await json(await subscribeReq(folio, apiKey))),
  );
  const urls = new Set(answers.map((a) => a.checkoutUrl));
  assert.equal(urls.size, 1);
  assert.match(String(answers[0].checkoutUrl), /^https:\/\/checkout\.stripe\.test\//);
  assert.equal(stripe.created, 1, "one Checkout Session");
  const post = stripe.requests.find((r) => r.method === "POST")!;
  assert.equal(post.auth, `Bearer ${stripe.secretKey}`);
  assert.equal(post.form.get("mode"), "subscription");
  assert.equal(post.form.get("line_items[0][price_data][unit_amount]"), "12500");
  assert.equal(post.form.get("line_items[0][price_data][recurring][interval]"), "month");
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM licenses WHERE state='pending'"), 1);
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM charges"), 0, "nothing billed yet");
});

Deno.test("checkout activates the license exactly once, whether the buyer's return or the webhook comes first", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  for (const order of [["return", "hook"], ["hook", "return"]]) {
    await folio.deps.store.db.execute("DELETE FROM licenses");
    const { apiKey, buyerId } = await buyerKey(folio);
    const answer = await json(await subscribeReq(folio, apiKey));
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    assert.equal(answer.checkoutUrl, stripe.sessions.get(sessionId)!.url);

    const early = await folio.request(`/api/marketplace/checkout/success?session_id=${sessionId}`);
    assert.match(await early.text(), /not confirmed yet/, "unpaid session does not activate");

    stripe.complete(sessionId);
    const t = Math.floor(folio.clock.now().getTime() / 1000);
    for (const step of order) {
      if (step === "return") {
        const res = await folio.request(
          `/api/marketplace/checkout/success?session_id=${sessionId}`,
        );
        assert.equal(res.status, 200);
        assert.match(await res.text(), /license is active/);
      } else {
        const body = eventBody(`evt_${order[0]}_${sessionId}`, "checkout.session.completed", {
          ...stripe.sessions.get(sessionId)!,
        });
        const res = await postHook(
          folio,
          body,
          await signature(body, { secret: stripe.webhookSecret, t }),
        );
        assert.equal(res.status, 200);
        await res.body?.cancel();
      }
    }
    const rs = await folio.deps.store.db.execute({
      sql: "SELECT kind, price_micros, paid_via FROM charges WHERE buyer_id = ?",
      args: [buyerId],
    });
    assert.deepEqual(rs.rows.map((r) => [r.kind, Number(r.price_micros), r.paid_via]), [
      ["subscription", 125_000_000, "card"],
    ], `one fee row (${order.join(" then ")})`);
    const st = await json(
      await folio.request("/api/marketplace/statement", {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    assert.equal(st.totalUsdCents, 12_500);
    assert.equal(st.amountDueUsdCents, 0, "paid by card at checkout");
  }
});

Deno.test("forged, stale or re-serialized webhooks are rejected with 400 and change nothing; rotation v1 is accepted", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const secret = stripe.webhookSecret;
  const t = Math.floor(folio.clock.now().getTime() / 1000);
  const body = eventBody("evt_1", "invoice.paid", { id: "in_1", amount_paid: 100 });
  const reserialized = JSON.stringify(JSON.parse(body), null, 2);
  const variants: [string, string, string | null][] = [
    ["missing signature", body, null],
    ["wrong secret", body, await signature(body, { secret: "whsec_wrong", t })],
    ["body mutated by one byte", body.replace("100", "101"), await signature(body, { secret, t })],
    ["timestamp 301 s old", body, await signature(body, { secret, t: t - 301 })],
    ["timestamp 301 s ahead", body, await signature(body, { secret, t: t + 301 })],
    ["re-serialized JSON", reserialized, await signature(body, { secret, t })],
    ["no v1", body, `t=${t}`],
  ];
  for (const [why, b, sig] of variants) {
    const res = await postHook(folio, b, sig);
    assert.equal(res.status, 400, why);
    assert.equal((await json<{ error: { code: string } }>(res)).error.code, "invalid_signature");
  }
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM payment_events"), 0);
  const rotated = await signature(body, { secret, t: t - 299, extraV1: ["00".repeat(32)] });
  const ok = await postHook(folio, body, rotated);
  assert.equal(ok.status, 200, "two v1 values, one valid");
  assert.deepEqual(await json(ok), { received: true, duplicate: false, effect: "none" });
});

Deno.test("each of 100 events delivered 5 times (concurrently) has exactly one effect", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const t = Math.floor(now.getTime() / 1000);
  const bodies: string[] = [];
  for (let i = 0; i < 100; i++) {
    const { buyerId } = await createBuyer(db, { name: `B${i}`, email: `b${i}@x.test` }, { now });
    const licenseId = `lic_bulk_${i}`;
    await insertLicense(db, buyerId, {
      id: licenseId,
      publisherId: "pub_demo",
      kind: "subscription",
      useCases: ["rag"],
      monthlyFeeMicros: 75_000_000,
      state: "pending",
      now,
    });
    await setCheckout(db, licenseId, { sessionId: `cs_bulk_${i}`, url: "https://x.test" });
    bodies.push(eventBody(`evt_bulk_${i}`, "checkout.session.completed", {
      id: `cs_bulk_${i}`,
      status: "complete",
      payment_status: "paid",
      subscription: `sub_bulk_${i}`,
      client_reference_id: licenseId,
    }));
  }
  const deliveries = bodies.flatMap((b) => Array.from({ length: 5 }, () => b));
  const results: string[] = [];
  for (let i = 0; i < deliveries.length; i += 25) {
    await Promise.all(
      deliveries.slice(i, i + 25).map(async (b) => {
        const res = await postHook(
          folio,
          b,
          await signature(b, { secret: stripe.webhookSecret, t }),
        );
        assert.equal(res.status, 200);
        results.push(String((await json(res)).effect));
      }),
    );
  }
  assert.equal(results.filter((e) => e === "activated").length, 100);
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM licenses WHERE state='active'"), 100);
  assert.equal(
    await count(folio, "SELECT COUNT(*) AS n FROM charges WHERE kind='subscription'"),
    100,
  );
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM payment_events"), 100);

  const gone = eventBody("evt_del", "customer.subscription.deleted", { id: "sub_bulk_7" });
  const res = await postHook(
    folio,
    gone,
    await signature(gone, { secret: stripe.webhookSecret, t }),
  );
  assert.equal((await json(res)).effect, "canceled");
  assert.equal(await count(folio, "SELECT COUNT(*) AS n FROM licenses WHERE state='active'"), 99);
});
