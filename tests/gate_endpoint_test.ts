/**
 * The forward-auth endpoints themselves (issue 33), asked as Traefik's ForwardAuth and Caddy's
 * forward_auth ask (X-Forwarded-Method/Proto/Host/Uri) and as nginx's auth_request is configured
 * to (X-Original-Method/URI): 2xx admits, refusals are Folio's own answer or nginx's 401 form, and a
 * request that does not say what it is for is refused with the header to fix.
 */
import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { BROWSER, demoPath, GPTBOT, HOST } from "./landing_helpers.ts";

/** Asks `door` about GET `path` on the demo's domain, as a proxy forwards it. */
function ask(
  folio: TestFolio,
  door: "forward-auth" | "nginx",
  path: string,
  headers: Record<string, string>,
) {
  const forwarded: Record<string, string> = door === "nginx"
    ? { "x-original-method": "GET", "x-original-uri": path }
    : { "x-forwarded-method": "GET", "x-forwarded-uri": path };
  return folio.request(`/api/gate/v1/${door}`, {
    headers: {
      "x-forwarded-host": HOST,
      "x-forwarded-proto": "https",
      "x-forwarded-for": "203.0.113.9",
      ...forwarded,
      ...headers,
    },
  });
}

Deno.test("gate endpoint: people pass, crawlers are quoted in Cloudflare's dialect or nginx's 401 form", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const person = await ask(folio, "forward-auth", paywall.path, { "user-agent": BROWSER });
  assert.equal(person.status, 200);
  assert.equal(await person.text(), "");

  // The origin's own credentials are not Folio's to judge.
  const basic = await ask(folio, "forward-auth", "/wp-admin/", {
    "user-agent": BROWSER,
    authorization: "Basic dXNlcjpwdw==",
  });
  assert.equal(basic.status, 200);
  await basic.body?.cancel();

  const quote = await ask(folio, "forward-auth", paywall.path, { "user-agent": GPTBOT });
  assert.equal(quote.status, 402);
  assert.match(quote.headers.get("crawler-price")!, /^USD \d+\.\d+$/);
  assert.match(
    quote.headers.get("link")!,
    /^<https:\/\/demo\.localhost\/license\.xml>; rel="license"/,
  );
  assert.match(await quote.text(), /crawler-exact-price/);

  const nginx = await ask(folio, "nginx", paywall.path, { "user-agent": GPTBOT });
  assert.equal(nginx.status, 401);
  assert.equal(nginx.headers.get("folio-status"), "402");
  assert.equal(nginx.headers.get("crawler-price"), quote.headers.get("crawler-price"));
  assert.match(nginx.headers.get("folio-message")!, /^This page is paid/);
  assert.equal(await nginx.text(), "");

  // A bad offer names its error in both forms.
  const bad = await ask(folio, "nginx", paywall.path, {
    "user-agent": GPTBOT,
    "crawler-exact-price": "USD 1,00",
  });
  assert.equal(bad.headers.get("folio-status"), "400");
  assert.equal(bad.headers.get("crawler-error"), "InvalidCrawlerPriceValue");
  await bad.body?.cancel();

  // The client's address is the one the proxy forwarded: the call log's anonymous identity.
  await folio.deps.callLog.flush();
  const rows = await folio.deps.store.db.execute(
    "SELECT tool, identity FROM call_log WHERE tool LIKE '_gate:%' ORDER BY id",
  );
  assert.deepEqual(rows.rows.map((r) => [r.tool, r.identity]), [
    ["_gate:forward_auth", "ip:203.0.113.9"],
    ["_gate:forward_auth", "ip:203.0.113.9"],
    ["_gate:forward_auth", "crawler:GPTBot"],
    ["_gate:nginx", "crawler:GPTBot"],
    ["_gate:nginx", "crawler:GPTBot"],
  ]);
});

Deno.test("gate endpoint: with agent payments off nobody is told to pay; BLOCKED keeps out agents only", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  const observe = await demoPath(folio, "OBSERVE");
  await patchDemo(folio, (p) => ({ ...p, agentPayments: { ...p.agentPayments, enabled: false } }));
  const off = await ask(folio, "forward-auth", paywall.path, { "user-agent": GPTBOT });
  assert.equal(off.status, 403);
  assert.equal(off.headers.get("crawler-price"), null);
  const text = await off.text();
  assert.doesNotMatch(text, /crawler-exact-price|crawler-max-price/);
  assert.match(text, /through Folio's API/);
  // An OBSERVE page stays free to an allowed crawler.
  const free = await ask(folio, "forward-auth", observe.path, { "user-agent": GPTBOT });
  assert.equal(free.status, 200);
  await free.body?.cancel();

  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
    args: [observe.id],
  });
  const bot = await ask(folio, "forward-auth", observe.path, { "user-agent": GPTBOT });
  assert.equal(bot.status, 403);
  assert.equal(bot.headers.get("crawler-error"), "CrawlerForbidden");
  await bot.body?.cancel();
  const person = await ask(folio, "forward-auth", observe.path, { "user-agent": BROWSER });
  assert.equal(person.status, 200);
  await person.body?.cancel();
});

Deno.test("gate endpoint: an article is found by the URL Folio ingested, query included", async () => {
  await using folio = await testFolio();
  const { id } = await demoPath(folio, "OBSERVE");
  await folio.deps.store.db.execute({
    sql: `UPDATE articles SET url = 'https://demo.localhost/?p=42', canonical_url = NULL,
          policy = 'BLOCKED' WHERE id = ?`,
    args: [id],
  });
  const found = await ask(folio, "forward-auth", "/?p=42", { "user-agent": GPTBOT });
  assert.equal(found.status, 403);
  assert.equal(found.headers.get("crawler-error"), "CrawlerForbidden");
  await found.body?.cancel();
  const other = await ask(folio, "forward-auth", "/?p=43", { "user-agent": GPTBOT });
  assert.notEqual(other.status, 403, "another page, not the blocked article");
  await other.body?.cancel();
});

Deno.test("gate endpoint: what the proxy forgot, or a domain no publisher verified, is refused", async () => {
  await using folio = await testFolio();
  const cases: [Record<string, string>, number, string][] = [
    [{ "x-forwarded-uri": "/a" }, 400, "X-Forwarded-Host"],
    [{ "x-forwarded-host": HOST }, 400, "X-Forwarded-Uri"],
    [{ "x-forwarded-host": HOST, "x-forwarded-uri": "a" }, 400, "X-Forwarded-Uri"],
    [
      { "x-forwarded-host": HOST, "x-forwarded-uri": "/a", "x-forwarded-proto": "ftp" },
      400,
      "X-Forwarded-Proto",
    ],
    [{ "x-forwarded-host": "nobody.example", "x-forwarded-uri": "/a" }, 404, "X-Forwarded-Host"],
  ];
  for (const [headers, status, param] of cases) {
    const res = await folio.request("/api/gate/v1/forward-auth", { headers });
    assert.equal(res.status, status, JSON.stringify(headers));
    assert.equal((await json<{ error: { param: string } }>(res)).error.param, param);
  }
  await folio.deps.callLog.flush();
  const rows = await folio.deps.store.db.execute(
    "SELECT COUNT(*) AS n FROM call_log WHERE tool LIKE '_gate:%'",
  );
  assert.equal(Number(rows.rows[0].n), 0, "nothing decided, nothing logged");
});
