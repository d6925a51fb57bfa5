/**
 * Reverse-proxy mode (issue 33): with `originUrl` set, the publisher's domain is answered by its
 * own origin through Folio. Admitted requests are forwarded and streamed with their headers (hop-by-
 * hop ones dropped both ways, RFC 9110 section 7.6.1), the origin's status and caching headers
 * kept; crawlers are gated as on the landing path; the origin's address obeys the fetcher's rules.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { BROWSER, demoPath, GPTBOT, HOST, visit } from "./landing_helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

const LOOPBACK = { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } };

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/** An origin that records what it is sent and answers by path. */
function startOrigin() {
  const seen: Seen[] = [];
  let release = () => {};
  const released = new Promise<void>((r) => release = r);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({
      method: req.method,
      path: url.pathname + url.search,
      headers: req.headers,
      body: await req.text(),
    });
    switch (url.pathname) {
      case "/moved":
        return new Response(null, { status: 302, headers: { location: "/elsewhere" } });
      case "/gone":
        return new Response("not here\n", {
          status: 404,
          headers: { "cache-control": "max-age=60" },
        });
      case "/stream": {
        const enc = new TextEncoder();
        const body = new ReadableStream({
          async start(ctl) {
            ctl.enqueue(enc.encode("first;"));
            await released;
            ctl.enqueue(enc.encode("second"));
            ctl.close();
          },
        });
        return new Response(body, { headers: { "content-type": "text/plain" } });
      }
    }
    const headers = new Headers({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=300",
      etag: '"v1"',
      "last-modified": "Sun, 15 Nov 2026 10:00:00 GMT",
      vary: "Accept-Encoding",
      connection: "x-origin-hop",
      "x-origin-hop": "secret",
    });
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=2; Path=/");
    return new Response(`origin page ${url.pathname}`, { headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    release: () => release(),
    async [Symbol.asyncDispose]() {
      release();
      await server.shutdown();
    },
  };
}

async function setOrigin(folio: TestFolio, originUrl: string | null) {
  return await sendJson(
    folio,
    "PATCH",
    "/api/publisher/settings",
    { originUrl },
    bearer(folio.seeded!.apiKey),
  );
}

Deno.test("reverse proxy: the origin's answers pass through, headers kept, hop-by-hop dropped", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using origin = startOrigin();
  const set = await setOrigin(folio, origin.url);
  assert.equal(set.status, 200);
  assert.equal((await json<{ originUrl: string }>(set)).originUrl, origin.url);
  const paywall = await demoPath(folio, "PAYWALL");

  const person = await visit(folio, `${paywall.path}?x=1`, {
    "user-agent": BROWSER,
    cookie: "session=abc",
    connection: "x-client-hop",
    "x-client-hop": "drop me",
  });
  assert.equal(person.status, 200);
  assert.equal(await person.text(), `origin page ${paywall.path}`);
  assert.equal(person.headers.get("cache-control"), "public, max-age=300");
  assert.equal(person.headers.get("etag"), '"v1"');
  assert.equal(person.headers.get("last-modified"), "Sun, 15 Nov 2026 10:00:00 GMT");
  assert.deepEqual(person.headers.getSetCookie(), ["a=1; Path=/", "b=2; Path=/"]);
  assert.equal(person.headers.get("x-origin-hop"), null, "named by Connection: hop-by-hop");
  assert.equal(
    person.headers.get("content-security-policy"),
    null,
    "Folio's page headers stay off",
  );
  const got = origin.seen.at(-1)!;
  assert.equal(got.path, `${paywall.path}?x=1`);
  assert.equal(got.headers.get("host"), `${HOST}:8080`, "the client's Host");
  assert.equal(got.headers.get("cookie"), "session=abc");
  assert.equal(got.headers.get("x-client-hop"), null);
  assert.equal(got.headers.get("x-forwarded-host"), `${HOST}:8080`);
  assert.equal(got.headers.get("x-forwarded-for"), "127.0.0.1");
  assert.equal(got.headers.get("via"), "1.1 folio");
  assert.equal(person.headers.get("via"), "1.1 folio");

  // The origin's own credentials are the origin's: passed on, never judged as Folio keys.
  const basic = await visit(folio, "/wp-admin/", { authorization: "Basic dXNlcjpwdw==" });
  assert.equal(basic.status, 200);
  await basic.body?.cancel();
  assert.equal(origin.seen.at(-1)!.headers.get("authorization"), "Basic dXNlcjpwdw==");

  // Status, redirects (not followed) and bodies go through as they are.
  const gone = await visit(folio, "/gone");
  assert.equal(gone.status, 404);
  assert.equal(gone.headers.get("cache-control"), "max-age=60");
  assert.equal(await gone.text(), "not here\n");
  const moved = await visit(folio, "/moved");
  assert.equal(moved.status, 302);
  assert.equal(moved.headers.get("location"), "/elsewhere");
  await moved.body?.cancel();
  const posted = await folio.request("/comments", {
    host: HOST,
    method: "POST",
    headers: { "user-agent": BROWSER, "content-type": "application/x-www-form-urlencoded" },
    body: "text=hello",
    checkDocumented: false,
  });
  assert.equal(posted.status, 200);
  await posted.body?.cancel();
  assert.deepEqual([origin.seen.at(-1)!.method, origin.seen.at(-1)!.body], ["POST", "text=hello"]);

  // Streamed: the first part arrives while the origin still holds the rest.
  const stream = await visit(folio, "/stream");
  const reader = stream.body!.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "first;");
  origin.release();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "second");
  await reader.cancel();

  // license.xml stays Folio's.
  const license = await visit(folio, "/license.xml");
  assert.match(await license.text(), /<rsl/);
});

Deno.test("reverse proxy: crawlers are gated as on the landing path before the origin sees them", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using origin = startOrigin();
  assert.equal((await setOrigin(folio, origin.url)).status, 200);
  const paywall = await demoPath(folio, "PAYWALL");
  const before = origin.seen.length;
  const quote = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  assert.equal(quote.status, 402);
  const price = quote.headers.get("crawler-price")!;
  assert.ok(price);
  await quote.body?.cancel();
  assert.equal(origin.seen.length, before, "the origin never saw the refused crawler");

  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Crawler Co",
    email: "crawler@example.test",
  }, { now: folio.clock.now() });
  const paid = await visit(folio, paywall.path, {
    "user-agent": GPTBOT,
    authorization: `Bearer ${apiKey}`,
    "crawler-exact-price": price,
  });
  assert.equal(paid.status, 200);
  assert.equal(paid.headers.get("crawler-charged"), price);
  // The signed receipt of the charge reaches the client too.
  assert.match(paid.headers.get("folio-receipt") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(await paid.text(), `origin page ${paywall.path}`);
  assert.equal(
    origin.seen.at(-1)!.headers.get("authorization"),
    null,
    "the buyer key stays with Folio",
  );
  const charges = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(charges.rows[0].n), 1);

  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
    args: [paywall.id],
  });
  const blocked = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  assert.equal(blocked.status, 403);
  assert.equal(blocked.headers.get("crawler-error"), "CrawlerForbidden");
  await blocked.body?.cancel();
  const person = await visit(folio, paywall.path);
  assert.equal(person.status, 200);
  assert.equal(await person.text(), `origin page ${paywall.path}`);

  await folio.deps.callLog.flush();
  const logged = await folio.deps.store.db.execute(
    "SELECT COUNT(*) AS n FROM call_log WHERE tool = '_proxy:origin'",
  );
  assert.ok(Number(logged.rows[0].n) >= 4);
});

Deno.test("reverse proxy: the origin setting is validated, and its address obeys the fetcher's rules", async () => {
  await using folio = await testFolio();
  for (
    const bad of [
      "ftp://origin.example",
      "http://user:pw@origin.example",
      "http://origin.example/blog",
      "nope",
    ]
  ) {
    const res = await setOrigin(folio, bad);
    assert.equal(res.status, 400, bad);
    assert.equal((await json<{ error: { param: string } }>(res)).error.param, "originUrl");
  }
  // Folio itself, or the domain Folio answers for the publisher, would loop.
  for (const loop of [`http://${HOST}`, folio.url]) {
    const res = await setOrigin(folio, loop);
    assert.equal(res.status, 400, loop);
    assert.equal((await json<{ error: { param: string } }>(res)).error.param, "originUrl");
  }
  const settings = await json<{ originUrl: string | null }>(
    await folio.request("/api/publisher/settings", { headers: bearer(folio.seeded!.apiKey) }),
  );
  assert.equal(settings.originUrl, null, "nothing changed");

  // A loopback origin without the operator's leave: refused, nothing forwarded.
  await using origin = startOrigin();
  assert.equal((await setOrigin(folio, origin.url)).status, 200);
  const res = await visit(folio, "/any");
  assert.equal(res.status, 502);
  assert.match(await res.text(), /cannot be reached/);
  assert.equal(origin.seen.length, 0);
});
