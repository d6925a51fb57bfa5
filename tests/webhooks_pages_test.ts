/**
 * The webhook pages of both portals without JavaScript (issue 34): the empty state, adding an
 * endpoint (the secret shown once), a refused URL beside its field, a test event in the delivery
 * log, its attempt and replay, rolling the secret and deleting after a confirmation page.
 */
import assert from "node:assert/strict";
import { drainDue } from "../server/domain/webhooks/delivery.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { demoVisitor, hidden, textOf, type Visitor } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";

function receiver() {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    hits++;
    return new Response("received");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/in`,
    hits: () => hits,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function walk(visitor: Visitor, base: string, event: string, drain: () => Promise<number>) {
  await using rx = receiver();
  const empty = await visitor.get(base);
  assert.equal(empty.status, 200);
  assert.match(textOf(empty.html), /No endpoint yet/);
  const csrf = hidden(empty.html);

  const bad = await visitor.post(`${base}/add`, {
    _csrf: csrf,
    url: "https://10.0.0.1/x",
    events: event,
  });
  assert.equal(bad.status, 400);
  assert.match(
    bad.html,
    /id="url-error" role="alert">Endpoint URL: must be a public address: 10\.0\.0\.1/,
  );
  assert.match(bad.html, /value="https:\/\/10\.0\.0\.1\/x"/, "what was typed stays");
  const none = await visitor.post(`${base}/add`, { _csrf: csrf, url: rx.url });
  assert.equal(none.status, 400);
  assert.match(none.html, /id="events-error" role="alert">Events to send: /);

  const added = await visitor.post(`${base}/add`, {
    _csrf: csrf,
    url: rx.url,
    description: "Ops channel",
    events: [event],
  });
  assert.equal(added.status, 200, added.html);
  assert.equal(added.headers.get("cache-control"), "no-store");
  const secret = /data-copy="(whsec_[^"]+)"/.exec(added.html)?.[1];
  assert.ok(secret, "the secret is shown once");
  const next = /<a class="button" href="([^"]+)">Done<\/a>/.exec(added.html)![1];
  assert.equal(
    added.url,
    `${next}/secret?done=added`,
    "the POST answered 303 to a page of its own",
  );

  // A reload of that page posts nothing: no second endpoint, and the secret is not shown again.
  const reloaded = await visitor.get(added.url);
  assert.equal(reloaded.status, 200);
  assert.equal(reloaded.headers.get("cache-control"), "no-store");
  assert.ok(!reloaded.html.includes(secret), "the secret is shown once only");
  assert.match(textOf(reloaded.html), /shown once already/);

  const list = await visitor.get(base);
  assert.ok(!list.html.includes(secret), "the list shows only the hint");
  assert.equal(textOf(list.html).match(/Ops channel/g)?.length, 1, "exactly one endpoint");

  const endpoint = await visitor.get(next);
  assert.match(textOf(endpoint.html), /Nothing sent yet/);
  const tested = await visitor.post(`${next}/test`, { _csrf: csrf });
  assert.match(textOf(tested.html), /Test event queued/);
  assert.equal(await drain(), 1);
  assert.equal(rx.hits(), 1);
  const log = await visitor.get(next);
  assert.match(textOf(log.html), /webhook\.test Delivered 1 200/);

  const deliveryHref = /href="([^"]+\/deliveries\/whd_[^"]+)"/.exec(log.html)![1];
  const delivery = await visitor.get(deliveryHref);
  assert.match(textOf(delivery.html), /received/);
  const replayed = await visitor.post(`${deliveryHref}/replay`, { _csrf: csrf });
  assert.match(textOf(replayed.html), /Delivery queued again/);
  assert.match(textOf(replayed.html), /\(replay\)/);

  const confirm = await visitor.get(`${next}/rotate`);
  assert.match(textOf(confirm.html), /stops signing at once/);
  const rolled = await visitor.post(`${next}/rotate`, { _csrf: csrf });
  const rolledSecret = /data-copy="(whsec_[^"]+)"/.exec(rolled.html)?.[1];
  assert.ok(rolledSecret && rolledSecret !== secret);
  assert.equal(rolled.url, `${next}/secret?done=rolled`);
  const rolledAgain = await visitor.get(rolled.url);
  assert.ok(!/whsec_/.test(rolledAgain.html), "a reload neither rolls nor shows a secret");
  assert.ok(textOf((await visitor.get(next)).html).includes(rolledSecret.slice(-4)));

  const ask = await visitor.get(`${next}/delete`);
  assert.match(textOf(ask.html), /cannot be undone/);
  const deleted = await visitor.post(`${next}/delete`, { _csrf: csrf });
  assert.match(textOf(deleted.html), /Endpoint deleted/);
  assert.match(textOf(deleted.html), /No endpoint yet/);
  const gone = await visitor.get(next);
  assert.equal(gone.status, 404);
}

Deno.test("the console's webhooks page, from empty to deleted", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  const visitor = await demoVisitor(folio);
  await walk(
    visitor,
    "/publisher/webhooks",
    "license_request.created",
    () => drainDue(folio.deps, { holder: "t" }),
  );
});

Deno.test("the buyer portal's webhooks page, from empty to deleted", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  const { visitor } = await portalSignUp(folio);
  await walk(
    visitor,
    "/buyer/webhooks",
    "budget.threshold",
    () => drainDue(folio.deps, { holder: "t" }),
  );
});
