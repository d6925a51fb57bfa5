/**
 * Signed webhooks (issue 34, docs/decisions/webhooks.md): a local receiver checks the signature
 * with the secret; retries after a 500 then success; replay; a test event; SSRF and bad URLs
 * refused; a receiver that hangs times out; budget thresholds fire once; events from the domain.
 */
import assert from "node:assert/strict";
import { createLicenseRequest } from "../server/domain/billing/license_requests.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { drainDue, RETRY_MINUTES } from "../server/domain/webhooks/delivery.ts";
import { PUBLISHER_EVENTS } from "../server/domain/webhooks/events.ts";
import { verifySignature } from "../server/domain/webhooks/signature.ts";
import { checkBuyerBudgets } from "../server/domain/webhooks/thresholds.ts";
import { SENDS } from "../server/domain/webhooks/routes.ts";
import { closeStatement } from "../server/domain/billing/close.ts";
import { makeOffer } from "../server/domain/billing/offers.ts";
import { acceptOffer, declineOffer } from "../server/domain/billing/offer_answers.ts";
import { getPublisher } from "../store/publishers.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { json, startTestFolio, type TestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, sendJson } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;
const LOOPBACK = { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } };

/** A receiver on 127.0.0.1 answering each request with the next of `answers` (the last repeats). */
function receiver(answers: (() => Response | Promise<Response>)[]) {
  const got: { body: string; signature: string | null; type: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    got.push({
      body,
      signature: req.headers.get("folio-signature"),
      type: req.headers.get("content-type"),
    });
    return await answers[Math.min(got.length - 1, answers.length - 1)]();
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hooks`,
    got,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

const key = (folio: TestFolio) => bearer(folio.seeded!.apiKey);

async function addEndpoint(folio: TestFolio, url: string, events: string[]) {
  const res = await sendJson(folio, "POST", "/api/publisher/webhook-endpoints", {
    url,
    events,
  }, key(folio));
  const body = await json<Body>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  return body as { endpoint: Body; secret: string };
}

async function deliveries(folio: TestFolio, endpointId: string): Promise<Body[]> {
  const res = await folio.request(`/api/publisher/webhook-endpoints/${endpointId}/deliveries`, {
    headers: key(folio),
  });
  return (await json<Body>(res)).deliveries;
}

function requestLicense(folio: TestFolio) {
  return createLicenseRequest(folio.store.db, {
    publisherId: "pub_demo",
    identity: "oauth:client-1",
    buyerId: null,
    useCase: "fine_tuning",
    message: "May we train on the archive?",
    contact: "ml@acme.test",
  }, { now: folio.clock.now() });
}

Deno.test("a license request is delivered signed with the endpoint's secret", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response("thanks")]);
  const { endpoint, secret } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  assert.match(secret, /^whsec_[0-9A-Za-z]{38}$/);
  assert.equal(endpoint.secretHint, `whsec_…${secret.slice(-4)}`);

  const { requestId } = await requestLicense(folio);
  assert.equal(rx.got.length, 0, "nothing is sent by the request itself");
  assert.equal(await drainDue(folio.deps, { holder: "t" }), 1);

  assert.equal(rx.got.length, 1);
  const [hit] = rx.got;
  assert.equal(hit.type, "application/json");
  const nowS = Math.floor(folio.clock.now().getTime() / 1000);
  assert.ok(verifySignature(secret, hit.signature!, hit.body, { nowS }), hit.signature!);
  assert.ok(!verifySignature(secret, hit.signature!, hit.body + " ", { nowS }));
  assert.ok(!verifySignature(`${secret}0`, hit.signature!, hit.body, { nowS }));
  assert.ok(!verifySignature(secret, hit.signature!, hit.body, { nowS: nowS + 301 }));
  const event = JSON.parse(hit.body);
  assert.equal(event.type, "license_request.created");
  assert.equal(event.data.requestId, requestId);
  assert.deepEqual(event.owner, { kind: "publisher", id: "pub_demo" });

  const [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "succeeded");
  assert.equal(d.lastStatus, 200);
  const detail = await json<Body>(
    await folio.request(`/api/publisher/webhook-deliveries/${d.id}`, { headers: key(folio) }),
  );
  assert.equal(detail.attempts.length, 1);
  assert.equal(detail.attempts[0].responseExcerpt, "thanks");
  assert.equal(detail.event.id, event.id);
});

Deno.test("a 500 is retried on the schedule, then succeeds; replay sends the event again", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([
    () => new Response("down for maintenance", { status: 500 }),
    () => new Response("ok"),
  ]);
  const { endpoint, secret } = await addEndpoint(folio, rx.url, ["*"]);
  await requestLicense(folio);
  await drainDue(folio.deps, { holder: "t" });
  let [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "pending");
  assert.equal(d.lastStatus, 500);
  assert.ok(d.nextAttemptAt > folio.clock.now().toISOString());

  assert.equal(await drainDue(folio.deps, { holder: "t" }), 0, "not due before its time");
  folio.clock.advance(RETRY_MINUTES[0] * 60_000 * 1.2);
  assert.equal(await drainDue(folio.deps, { holder: "t" }), 1);
  [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "succeeded");
  assert.equal(d.attempts, 2);
  assert.equal(rx.got.length, 2);
  assert.equal(rx.got[0].body, rx.got[1].body, "the same event both times");

  const replayed = await sendJson(
    folio,
    "POST",
    `/api/publisher/webhook-deliveries/${d.id}/replay`,
    undefined,
    key(folio),
  );
  const r = await json<Body>(replayed);
  assert.equal(replayed.status, 202);
  assert.equal(r.delivery.replayOf, d.id);
  await drainDue(folio.deps, { holder: "t" });
  assert.equal(rx.got.length, 3);
  assert.equal(JSON.parse(rx.got[2].body).id, JSON.parse(rx.got[0].body).id);
  const nowS = Math.floor(folio.clock.now().getTime() / 1000);
  assert.ok(verifySignature(secret, rx.got[2].signature!, rx.got[2].body, { nowS }));
});

Deno.test("every attempt fails: the delivery fails after the last retry", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response("no", { status: 503 })]);
  const { endpoint } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  await requestLicense(folio);
  for (let i = 0; i <= RETRY_MINUTES.length; i++) {
    assert.equal(await drainDue(folio.deps, { holder: "t" }), 1);
    folio.clock.advance(2 * 24 * 60 * 60_000);
  }
  assert.equal(await drainDue(folio.deps, { holder: "t" }), 0);
  const [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "failed");
  assert.equal(d.attempts, RETRY_MINUTES.length + 1);
  assert.equal(d.nextAttemptAt, null);
});

Deno.test("a receiver that never answers times out and is retried", async () => {
  await using folio = await testFolio(LOOPBACK);
  const hung = Promise.withResolvers<Response>();
  await using rx = receiver([() => hung.promise]);
  const { endpoint } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  await requestLicense(folio);
  await drainDue(folio.deps, { holder: "t", timeoutMs: 300 });
  hung.resolve(new Response("late"));
  const [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "pending");
  assert.equal(d.lastStatus, null);
  assert.match(d.lastError, /^timeout: /);
});

Deno.test("a test event goes to the one endpoint asked, subscribed or not", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response(null, { status: 204 })]);
  const { endpoint } = await addEndpoint(folio, rx.url, ["offer.accepted"]);
  const res = await sendJson(
    folio,
    "POST",
    `/api/publisher/webhook-endpoints/${endpoint.id}/test`,
    undefined,
    key(folio),
  );
  assert.equal(res.status, 202);
  assert.equal((await json<Body>(res)).delivery.eventType, "webhook.test");
  await drainDue(folio.deps, { holder: "t" });
  assert.equal(JSON.parse(rx.got[0].body).type, "webhook.test");
  assert.equal((await deliveries(folio, endpoint.id))[0].state, "succeeded");
});

Deno.test("rotating the secret signs later deliveries with the new one only", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response("ok")]);
  const { endpoint, secret: old } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  const res = await sendJson(
    folio,
    "POST",
    `/api/publisher/webhook-endpoints/${endpoint.id}/rotate-secret`,
    undefined,
    key(folio),
  );
  const { secret } = await json<Body>(res);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.notEqual(secret, old);
  await requestLicense(folio);
  await drainDue(folio.deps, { holder: "t" });
  const nowS = Math.floor(folio.clock.now().getTime() / 1000);
  const [hit] = rx.got;
  assert.ok(verifySignature(secret, hit.signature!, hit.body, { nowS }));
  assert.ok(!verifySignature(old, hit.signature!, hit.body, { nowS }));
});

Deno.test("bad URLs and events are refused and store nothing", async () => {
  await using folio = await testFolio();
  const add = (body: unknown) =>
    sendJson(folio, "POST", "/api/publisher/webhook-endpoints", body, key(folio));
  const events = ["license_request.created"];
  await assertInvalid(
    await add({ url: "not a url", events }),
    "url: must be a full URL such as https://example.com/folio/webhooks",
  );
  await assertInvalid(
    await add({ url: "ftp://example.com/x", events }),
    "url: must start with https://",
  );
  await assertInvalid(
    await add({ url: "http://example.com/x", events }),
    "url: must start with https://",
  );
  await assertInvalid(
    await add({ url: "https://user:pw@example.com/x", events }),
    "url: must not carry a user name or password",
  );
  await assertInvalid(
    await add({ url: "https://127.0.0.1/x", events }),
    "url: must be a public address: this server refuses to call itself",
  );
  await assertInvalid(
    await add({ url: "https://10.0.0.7/x", events }),
    "url: must be a public address: 10.0.0.7 is a private or reserved one",
  );
  await assertInvalid(
    await add({ url: "https://169.254.169.254/latest", events }),
    "url: must be a public address: 169.254.169.254 is a private or reserved one",
  );
  await assertInvalid(
    await add({ url: "https://example.com/x", events: ["budget.threshold"] }),
    `events: choose at least one of ${PUBLISHER_EVENTS.join(", ")} (or * for all)`,
  );
  const list = await json<Body>(
    await folio.request("/api/publisher/webhook-endpoints", { headers: key(folio) }),
  );
  assert.deepEqual(list.endpoints, []);
});

Deno.test("a name that resolves to a private address is refused at delivery (SSRF)", async () => {
  await using folio = await testFolio();
  const made = await addEndpoint(folio, "https://hooks.example.com/x", ["license_request.created"]);
  await requestLicense(folio);
  // The guarded fetcher as production builds it (no loopback), with DNS pointing inside.
  const fetcher = createFetcher({
    userAgent: "test",
    retries: 0,
    resolve: () => Promise.resolve(["10.1.2.3"]),
  });
  await drainDue(folio.deps, { holder: "t", fetcher });
  const [d] = await deliveries(folio, made.endpoint.id);
  assert.equal(d.state, "pending");
  assert.equal(d.lastStatus, null);
  assert.equal(
    d.lastError,
    "blocked_address: hooks.example.com resolves to 10.1.2.3, which is private",
  );
});

Deno.test("another owner's endpoints and deliveries are not found", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response("ok")]);
  const { endpoint } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  const { apiKey } = await apiSignup(folio);
  const buyer = bearer(apiKey);
  const res = await folio.request(`/api/marketplace/webhook-endpoints/${endpoint.id}/deliveries`, {
    headers: buyer,
  });
  assert.equal(res.status, 404);
  await res.body?.cancel();
  const del = await folio.request(`/api/marketplace/webhook-endpoints/${endpoint.id}`, {
    method: "DELETE",
    headers: buyer,
  });
  assert.equal(del.status, 404);
  await del.body?.cancel();
  const gone = await folio.request(`/api/publisher/webhook-endpoints/${endpoint.id}`, {
    method: "DELETE",
    headers: key(folio),
  });
  assert.equal(gone.status, 204);
  await gone.body?.cancel();
});

Deno.test("budget thresholds fire once each per budget and month; a closed month notifies", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using rx = receiver([() => new Response("ok")]);
  const { buyerId, apiKey } = await apiSignup(folio);
  const buyer = bearer(apiKey);
  const add = await sendJson(folio, "POST", "/api/marketplace/webhook-endpoints", {
    url: rx.url,
    events: ["budget.threshold", "statement.closed"],
  }, buyer);
  assert.equal(add.status, 201);
  const { endpoint } = await json<Body>(add);
  const budget = await sendJson(folio, "PUT", "/api/marketplace/budgets", {
    monthlyUsdCents: 1000,
  }, buyer);
  assert.equal(budget.status, 200);
  await budget.body?.cancel();
  const spend = (micros: number) =>
    folio.store.db.execute({
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, 'pub_demo', '2026-11', ?) ON CONFLICT (buyer_id, publisher_id, month)
            DO UPDATE SET metered_micros = excluded.metered_micros`,
      args: [buyerId, micros],
    });
  const now = () => ({ now: folio.clock.now() });
  await spend(7_000_000);
  assert.equal(await checkBuyerBudgets(folio.store.db, buyerId, now()), 0, "70%: nothing");
  await spend(8_000_000);
  assert.equal(await checkBuyerBudgets(folio.store.db, buyerId, now()), 1, "80%");
  assert.equal(await checkBuyerBudgets(folio.store.db, buyerId, now()), 0, "80% again: once");
  await spend(12_345_678);
  assert.equal(await checkBuyerBudgets(folio.store.db, buyerId, now()), 1, "100%");
  assert.equal(await checkBuyerBudgets(folio.store.db, buyerId, now()), 0);
  await drainDue(folio.deps, { holder: "t" });
  const sent = rx.got.map((g) => JSON.parse(g.body));
  // Deliveries due together go out in parallel, in no promised order (as with Stripe).
  sent.sort((x, y) => x.data.threshold - y.data.threshold);
  assert.deepEqual(sent.map((e) => [e.type, e.data.threshold, e.data.budget]), [
    ["budget.threshold", 80, "overall"],
    ["budget.threshold", 100, "overall"],
  ]);
  // Amounts in an event are whole cents, the exact spend beside them in micro-dollars.
  assert.deepEqual([sent[1].data.spentUsdCents, sent[1].data.spentMicros], [1235, 12_345_678]);

  folio.clock.set("2026-12-01T01:00:00Z");
  assert.ok(
    await closeStatement(folio.store.db, buyerId, { month: "2026-11", now: folio.clock.now() }),
  );
  await drainDue(folio.deps, { holder: "t" });
  const closed = JSON.parse(rx.got.at(-1)!.body);
  assert.equal(closed.type, "statement.closed");
  assert.equal(closed.data.month, "2026-11");
  const list = await json<Body>(
    await folio.request(`/api/marketplace/webhook-endpoints/${endpoint.id}/deliveries`, {
      headers: buyer,
    }),
  );
  assert.equal(list.deliveries.length, 3);
});

Deno.test("queued deliveries survive a restart and go out once across two nodes", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    await using rx = receiver([() => new Response("ok")]);
    {
      await using folio = await testFolio({ ...LOOPBACK, dataDir });
      await addEndpoint(folio, rx.url, ["license_request.created"]);
      for (const use of ["fine_tuning", "display", "summarization"]) {
        await createLicenseRequest(folio.store.db, {
          publisherId: "pub_demo",
          identity: "oauth:client-1",
          buyerId: null,
          useCase: use,
          message: "Please",
          contact: null,
        }, { now: folio.clock.now() });
      }
    }
    await using again = await testFolio({ ...LOOPBACK, dataDir });
    const [a, b] = await Promise.all([
      drainDue(again.deps, { holder: "node-a" }),
      drainDue(again.deps, { holder: "node-b" }),
    ]);
    assert.equal(a + b, 3);
    assert.equal(rx.got.length, 3, "each delivery sent by one node only");
    assert.equal(new Set(rx.got.map((g) => JSON.parse(g.body).id)).size, 3);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a shutdown mid-send hands the delivery back unlogged", async () => {
  await using folio = await testFolio(LOOPBACK);
  const hung = Promise.withResolvers<Response>();
  await using rx = receiver([() => hung.promise, () => new Response("ok")]);
  const { endpoint } = await addEndpoint(folio, rx.url, ["license_request.created"]);
  await requestLicense(folio);
  const stop = new AbortController();
  const draining = drainDue(folio.deps, { holder: "t", signal: stop.signal });
  while (rx.got.length === 0) await new Promise((r) => setTimeout(r, 10));
  stop.abort();
  await draining;
  hung.resolve(new Response("late"));
  const [d] = await deliveries(folio, endpoint.id);
  assert.equal(d.state, "pending");
  assert.equal(d.attempts, 0);
  assert.equal(await drainDue(folio.deps, { holder: "other" }), 1, "at once, by any node");
  assert.equal((await deliveries(folio, endpoint.id))[0].state, "succeeded");
});

Deno.test("test events and replays are limited per owner", async () => {
  await using folio = await testFolio();
  const { endpoint } = await addEndpoint(folio, "https://hooks.example.com/x", ["offer.accepted"]);
  const send = () =>
    sendJson(
      folio,
      "POST",
      `/api/publisher/webhook-endpoints/${endpoint.id}/test`,
      undefined,
      key(folio),
    );
  for (let i = 0; i < SENDS.limit; i++) {
    const res = await send();
    assert.equal(res.status, 202);
    await res.body?.cancel();
  }
  const refused = await send();
  assert.equal(refused.status, 429);
  assert.ok(refused.headers.get("retry-after"));
  await refused.body?.cancel();
  const queued = await folio.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?",
    args: [endpoint.id],
  });
  assert.equal(Number(queued.rows[0].n), SENDS.limit, "the refused one queued nothing");
});

Deno.test("a running server's worker sends queued deliveries by itself", async () => {
  await using folio = await startTestFolio(LOOPBACK);
  await using rx = receiver([() => new Response("ok")]);
  await addEndpoint(folio, rx.url, ["license_request.created"]);
  await requestLicense(folio);
  // The worker polls every 5 seconds; the deadline only stops a broken test from hanging.
  const deadline = Date.now() + 30_000;
  while (rx.got.length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(rx.got.length, 1);
  assert.equal(JSON.parse(rx.got[0].body).type, "license_request.created");
});

Deno.test("offers notify: offer.created to the buyer, offer.accepted and offer.declined to the publisher", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using toBuyer = receiver([() => new Response("ok")]);
  await using toPublisher = receiver([() => new Response("ok")]);
  const { buyerId, apiKey } = await apiSignup(folio);
  const add = await sendJson(folio, "POST", "/api/marketplace/webhook-endpoints", {
    url: toBuyer.url,
    events: ["offer.created"],
  }, bearer(apiKey));
  assert.equal(add.status, 201);
  await add.body?.cancel();
  await addEndpoint(folio, toPublisher.url, ["offer.accepted", "offer.declined"]);
  const publisher = (await getPublisher(folio.store.db, "pub_demo"))!;
  const now = folio.clock.now();
  const offerOn = async (useCase: "rag" | "fine_tuning") => {
    const { requestId } = await createLicenseRequest(folio.store.db, {
      publisherId: "pub_demo",
      identity: `buyer:${buyerId}`,
      buyerId,
      useCase,
      message: "For our assistant",
      contact: null,
      maxMonthlyMicros: 50_000_000,
    }, { now });
    return (await makeOffer(folio.store.db, publisher, {
      requestId,
      now,
      monthlyPriceMicros: 30_000_000,
      note: "Welcome aboard",
    })).offer;
  };
  const first = await offerOn("rag");
  await acceptOffer(folio.store.db, buyerId, first.id, { now });
  const second = await offerOn("fine_tuning");
  await declineOffer(folio.store.db, buyerId, second.id, { reason: "Too dear", now });
  assert.equal(toBuyer.got.length + toPublisher.got.length, 0, "nothing is sent by the request");
  await drainDue(folio.deps, { holder: "t" });

  // Events of one instant go out in no promised order: sort them by type, then offer.
  const events = (got: { body: string }[]) =>
    got.map((g) => JSON.parse(g.body)).sort((a, b) =>
      `${a.type} ${a.data.offerId === first.id ? 0 : 1}`.localeCompare(
        `${b.type} ${b.data.offerId === first.id ? 0 : 1}`,
      )
    );
  const created = events(toBuyer.got);
  assert.deepEqual(created.map((e) => [e.type, e.data.offerId]), [
    ["offer.created", first.id],
    ["offer.created", second.id],
  ]);
  assert.equal(created[0].data.monthlyPriceUsd, "30.00");
  assert.equal(created[0].data.note, "Welcome aboard");
  assert.deepEqual(created[0].owner, { kind: "buyer", id: buyerId });
  const answered = events(toPublisher.got);
  assert.deepEqual(answered.map((e) => [e.type, e.data.offerId]), [
    ["offer.accepted", first.id],
    ["offer.declined", second.id],
  ]);
  assert.match(answered[0].data.licenseId, /^lic_/);
  assert.equal(answered[1].data.reason, "Too dear");
});
