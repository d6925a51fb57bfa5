/**
 * The crawler gate behind a real nginx (issue 33): the configuration the management API hands a
 * publisher (server/domain/crawlers/proxy_config.ts), run by Debian's nginx in front of a local
 * static origin with `auth_request` to Folio. People get the origin's page untouched; crawlers pay
 * per crawl in Cloudflare's dialect; a paid read is one charge, in the call log and the statement.
 */
import assert from "node:assert/strict";
import { nginxConfig } from "../server/domain/crawlers/proxy_config.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import {
  freePort,
  missing,
  type RunningProxy,
  startNginx,
  startOrigin,
} from "./fixtures/proxies.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { json, startTestFolio, type TestFolio } from "./helpers.ts";
import { BROWSER, BROWSER_NAVIGATION, demoPath, GPTBOT, HOST } from "./landing_helpers.ts";
import { startTestSigner } from "./web_bot_auth_helpers.ts";

const CLAUDEBOT = "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const RSL =
  /^<http:\/\/demo\.localhost:\d+\/license\.xml>; rel="license"; type="application\/rsl\+xml"$/;

/** Stores the origin's robots.txt for the demo as a fetch would have. */
async function storeRobots(folio: TestFolio, origin: string, body: string) {
  await patchDemo(folio, (p) => ({ ...p, robotsOrigin: origin }));
  const now = folio.clock.now().getTime();
  await folio.deps.store.db.execute({
    sql: `INSERT INTO robots (publisher_id, origin, body, status, fetched_at, last_ok_at)
          VALUES ('pub_demo', ?, ?, 200, ?, ?)`,
    args: [origin, body, now, now],
  });
}

/**
 * With Folio down, license.xml is a clear 503 (issue 40): never the origin's page at that path,
 * which a crawler would read as the license, nor a proxy's HTML error page.
 */
async function assertNoLicense(proxy: RunningProxy) {
  for (const agent of [GPTBOT, BROWSER]) {
    const res = await proxy.fetch(HOST, "/license.xml", { headers: { "user-agent": agent } });
    assert.equal(res.status, 503, proxy.log());
    assert.equal(res.headers.get("retry-after"), "60");
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    assert.match(await res.text(), /^The license server is unavailable: retry later\.\n?$/);
  }
}

const skip = missing("nginx");
if (skip) console.warn(`gate_nginx_test: ${skip}`);

Deno.test({
  name: "nginx gate: people pass untouched, crawlers pay per crawl, a paid read is one charge",
  ignore: skip !== null,
  async fn() {
    await using folio = await startTestFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
    await using origin = startOrigin();
    await storeRobots(folio, origin.url, "User-agent: ClaudeBot\nDisallow: /\n");
    // The configuration as the management API hands it to the publisher.
    const { nginx: conf } = await json<{ nginx: { config: string } }>(
      await folio.request(`/api/publisher/gate/config?origin=${origin.url}`, {
        headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
      }),
    );
    await using nginx = await startNginx((port) =>
      conf.config.replace("listen 80;", `listen 127.0.0.1:${port};`)
    );
    const paywall = await demoPath(folio, "PAYWALL");
    const observe = await demoPath(folio, "OBSERVE");
    const get = (path: string, headers: Record<string, string>) =>
      nginx.fetch(HOST, path, { headers });

    // A person: the origin's page and headers, byte for byte, nothing added.
    const person = await get(paywall.path, { "user-agent": BROWSER });
    assert.equal(person.status, 200, nginx.log());
    assert.equal(await person.text(), origin.page(paywall.path));
    assert.equal(person.headers.get("cache-control"), "public, max-age=300");
    assert.equal(person.headers.get("etag"), `"origin-${paywall.path.length}"`);
    assert.equal(person.headers.get("crawler-charged"), null);

    // GPTBot on a paywalled page: Cloudflare's 402 with the price and the RSL link.
    const hits = origin.hits.length;
    const quote = await get(paywall.path, { "user-agent": GPTBOT });
    assert.equal(quote.status, 402, nginx.log());
    const price = quote.headers.get("crawler-price")!;
    assert.match(price, /^USD \d+\.\d+$/);
    assert.match(quote.headers.get("link") ?? "", RSL);
    assert.match(await quote.text(), /crawler-exact-price/);
    assert.equal(origin.hits.length, hits, "the origin never saw the refused request");

    // The paid retry with a buyer key: the origin's page, crawler-charged, one charge.
    const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
      name: "Crawler Co",
      email: "crawler@example.test",
    }, { now: folio.clock.now() });
    const pay = {
      "user-agent": GPTBOT,
      authorization: `Bearer ${apiKey}`,
      "crawler-exact-price": price,
      "idempotency-key": "gate-1",
    };
    for (let i = 0; i < 2; i++) {
      const paid = await get(paywall.path, pay);
      assert.equal(paid.status, 200, nginx.log());
      assert.equal(paid.headers.get("crawler-charged"), price);
      // The signed receipt of the charge reaches the client too.
      assert.match(paid.headers.get("folio-receipt") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(await paid.text(), origin.page(paywall.path));
    }
    const charges = async () =>
      (await folio.deps.store.db.execute({
        sql: "SELECT article_id, surface, kind FROM charges WHERE buyer_id = ?",
        args: [buyerId],
      })).rows.map((r) => [r.article_id, r.surface, r.kind]);
    assert.deepEqual(await charges(), [[paywall.id, "landing", "landing"]], "one charge, retried");
    assert.equal(
      origin.lastHeaders()!.get("authorization"),
      null,
      "the buyer key stays with Folio",
    );

    // A wrong offer is refused in the dialect, with its code.
    const low = await get(paywall.path, { ...pay, "crawler-exact-price": "USD 0.000001" });
    assert.equal(low.status, 402);
    assert.equal(low.headers.get("crawler-error"), "InvalidCrawlerExactPrice");
    assert.equal(low.headers.get("crawler-price"), price);
    await low.body?.cancel();

    // A key that is not a live buyer key: 401 with one challenge, nothing served.
    const badKey = await get(paywall.path, { ...pay, authorization: "Bearer mk_not_a_key" });
    assert.equal(badKey.status, 401, nginx.log());
    assert.equal(
      badKey.headers.get("www-authenticate"),
      'Bearer realm="folio", error="invalid_token"',
    );
    assert.match(await badKey.text(), /not a live Folio buyer key/);

    // Web Bot Auth: a signed retry from a registered directory pays as its buyer.
    await using signer = await startTestSigner({ now: () => folio.clock.now() });
    const register = await folio.request("/api/marketplace/signature-agents", {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        ...await signer.sign(
          `http://127.0.0.1:${new URL(folio.url).port}/api/marketplace/signature-agents`,
        ),
      },
      body: JSON.stringify({ agent: signer.agent }),
    });
    assert.equal(register.status, 201);
    await register.body?.cancel();
    const url = `http://${HOST}:${nginx.port}${paywall.path}`;
    const offer = { "crawler-exact-price": price };
    const signed = await get(paywall.path, {
      "user-agent": GPTBOT,
      ...offer,
      ...await signer.sign(url, { headers: offer, cover: ["crawler-exact-price"] }),
    });
    assert.equal(signed.status, 200, nginx.log());
    assert.equal(signed.headers.get("crawler-charged"), price);
    assert.equal(await signed.text(), origin.page(paywall.path));
    assert.equal((await charges()).length, 2);

    // The origin's robots.txt disallows ClaudeBot: it pays on a free article; GPTBot reads it free.
    const claude = await get(observe.path, { "user-agent": CLAUDEBOT });
    assert.equal(claude.status, 402, nginx.log());
    const claudePrice = claude.headers.get("crawler-price")!;
    assert.ok(claudePrice);
    await claude.body?.cancel();
    const claudePaid = await get(observe.path, {
      "user-agent": CLAUDEBOT,
      authorization: `Bearer ${apiKey}`,
      "crawler-exact-price": claudePrice,
    });
    assert.equal(claudePaid.status, 200);
    assert.equal(claudePaid.headers.get("crawler-charged"), claudePrice);
    assert.equal(await claudePaid.text(), origin.page(observe.path));
    assert.equal((await charges()).length, 3);
    const free = await get(observe.path, { "user-agent": GPTBOT });
    assert.equal(free.status, 200);
    assert.equal(await free.text(), origin.page(observe.path));

    // A path Folio never ingested is priced by the defaults: a charged crawler pays there too.
    await patchDemo(folio, (p) => ({
      ...p,
      agentPayments: {
        ...p.agentPayments,
        crawlers: { CCBot: "charge" },
        crawlerPriceMicros: 20_000,
      },
    }));
    const unknown = await get("/not/ingested?page=2", { "user-agent": "CCBot/2.0" });
    assert.equal(unknown.status, 402, nginx.log());
    assert.equal(unknown.headers.get("crawler-price"), "USD 0.02094");
    await unknown.body?.cancel();
    // robots.txt stays the origin's and free to every crawler.
    const robots = await get("/robots.txt", { "user-agent": "CCBot/2.0" });
    assert.equal(robots.status, 200);
    assert.equal(await robots.text(), "User-agent: *\nAllow: /\n");

    // A blocked article is refused to crawlers; a person still reads it on the origin.
    await folio.deps.store.db.execute({
      sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
      args: [observe.id],
    });
    const blocked = await get(observe.path, { "user-agent": GPTBOT });
    assert.equal(blocked.status, 403, nginx.log());
    assert.equal(blocked.headers.get("crawler-error"), "CrawlerForbidden");
    assert.match(blocked.headers.get("link") ?? "", RSL);
    await blocked.body?.cancel();
    const reader = await get(observe.path, { "user-agent": BROWSER });
    assert.equal(reader.status, 200);
    assert.equal(await reader.text(), origin.page(observe.path));

    // license.xml, linked from every refusal, is Folio's, through the same proxy.
    const license = await get("/license.xml", { "user-agent": GPTBOT });
    assert.equal(license.status, 200);
    assert.equal(license.headers.get("content-type"), "application/rsl+xml; charset=utf-8");
    assert.match(await license.text(), /<rsl/);
    // A person's browser gets it in words through the same location (issue 42).
    const read = await get("/license.xml", BROWSER_NAVIGATION);
    assert.equal(read.status, 200, nginx.log());
    assert.match(read.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await read.text(), /License for AI use/);

    // The call log names the door; the buyer's statement shows the reads.
    await folio.deps.callLog.flush();
    const logged = await folio.deps.store.db.execute(
      "SELECT tool, surface, http_status FROM call_log WHERE tool LIKE '_gate:%' ORDER BY id",
    );
    assert.ok(logged.rows.length >= 10);
    assert.ok(logged.rows.every((r) => r.tool === "_gate:nginx" && r.surface === "landing"));
    assert.ok(logged.rows.some((r) => Number(r.http_status) === 402));
    const statement = await json<{ lines: { kind: string; amountUsdCents: number }[] }>(
      await folio.request("/api/marketplace/statement", {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    const line = statement.lines.find((l) => l.kind === "landing")!;
    assert.ok(line, "the paid reads are on the statement");
  },
});

Deno.test({
  name:
    "nginx gate: when Folio is down, people pass; known crawlers are refused or let through as configured",
  ignore: skip !== null,
  async fn() {
    await using origin = startOrigin();
    // Folio is "down": nothing listens where the configuration points.
    const site = {
      domain: HOST,
      folioUrl: `http://127.0.0.1:${freePort()}`,
      originUrl: origin.url,
    };
    const listen = (config: string, port: number) =>
      config.replace("listen 80;", `listen 127.0.0.1:${port};`);
    {
      await using nginx = await startNginx((port) =>
        listen(nginxConfig({ ...site, whenDown: "refuse-crawlers" }).config, port)
      );
      const person = await nginx.fetch(HOST, "/a/page", { headers: { "user-agent": BROWSER } });
      assert.equal(person.status, 200, nginx.log());
      assert.equal(await person.text(), origin.page("/a/page"));
      const bot = await nginx.fetch(HOST, "/a/page", { headers: { "user-agent": GPTBOT } });
      assert.equal(bot.status, 503);
      assert.equal(bot.headers.get("retry-after"), "60");
      assert.doesNotMatch(await bot.text(), /publisher's own page/);
      await assertNoLicense(nginx);
    }
    {
      await using nginx = await startNginx((port) =>
        listen(nginxConfig({ ...site, whenDown: "open" }).config, port)
      );
      const bot = await nginx.fetch(HOST, "/a/page", { headers: { "user-agent": GPTBOT } });
      assert.equal(bot.status, 200, nginx.log());
      assert.equal(await bot.text(), origin.page("/a/page"));
      await assertNoLicense(nginx);
    }
  },
});
