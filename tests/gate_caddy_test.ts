/**
 * The crawler gate behind a real Caddy (issue 33): the `forward_auth` configuration the management
 * API hands a publisher (server/domain/crawlers/proxy_config.ts), run by Debian's Caddy in front of
 * a local static origin. Folio's refusals reach the client as Folio answers them.
 */
import assert from "node:assert/strict";
import { caddyConfig } from "../server/domain/crawlers/proxy_config_forward_auth.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import {
  freePort,
  missing,
  type RunningProxy,
  startCaddy,
  startOrigin,
} from "./fixtures/proxies.ts";
import { json, startTestFolio } from "./helpers.ts";
import { BROWSER, BROWSER_NAVIGATION, demoPath, GPTBOT, HOST } from "./landing_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { startTestSigner } from "./web_bot_auth_helpers.ts";

const CLAUDEBOT = "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";

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

const skip = missing("caddy");
if (skip) console.warn(`gate_caddy_test: ${skip}`);

/** The Caddyfile for the demo's domain, served over plain HTTP on `port`. */
function caddyfile(site: Parameters<typeof caddyConfig>[0], port: number): string {
  return caddyConfig(site).config.replace(`${HOST} {`, `http://${HOST}:${port} {`);
}

Deno.test({
  name: "Caddy gate: people pass untouched, crawlers pay per crawl, a paid read is one charge",
  ignore: skip !== null,
  async fn() {
    await using folio = await startTestFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
    await using origin = startOrigin();
    // The origin's robots.txt, as a fetch stored it: ClaudeBot is disallowed.
    await patchDemo(folio, (p) => ({ ...p, robotsOrigin: origin.url }));
    const now = folio.clock.now().getTime();
    await folio.deps.store.db.execute({
      sql: `INSERT INTO robots (publisher_id, origin, body, status, fetched_at, last_ok_at)
            VALUES ('pub_demo', ?, 'User-agent: ClaudeBot\nDisallow: /\n', 200, ?, ?)`,
      args: [origin.url, now, now],
    });
    // The configuration as the management API hands it to the publisher.
    const { caddy: conf } = await json<{ caddy: { config: string } }>(
      await folio.request(`/api/publisher/gate/config?origin=${origin.url}`, {
        headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
      }),
    );
    await using caddy = await startCaddy((port) =>
      conf.config.replace(`${HOST} {`, `http://${HOST}:${port} {`)
    );
    const paywall = await demoPath(folio, "PAYWALL");
    const get = (path: string, headers: Record<string, string>) =>
      caddy.fetch(HOST, path, { headers });

    const person = await get(paywall.path, { "user-agent": BROWSER });
    assert.equal(person.status, 200, caddy.log());
    assert.equal(await person.text(), origin.page(paywall.path));
    assert.equal(person.headers.get("cache-control"), "public, max-age=300");
    assert.equal(person.headers.get("crawler-charged"), null);

    const quote = await get(paywall.path, { "user-agent": GPTBOT });
    assert.equal(quote.status, 402, caddy.log());
    const price = quote.headers.get("crawler-price")!;
    assert.match(price, /^USD \d+\.\d+$/);
    assert.match(quote.headers.get("link") ?? "", /license\.xml>; rel="license"/);
    await quote.body?.cancel();

    // license.xml through Caddy: RSL for agents, words for a person's browser (issue 42).
    const rsl = await get("/license.xml", { "user-agent": GPTBOT });
    assert.equal(
      rsl.headers.get("content-type"),
      "application/rsl+xml; charset=utf-8",
      caddy.log(),
    );
    assert.match(await rsl.text(), /<rsl xmlns/);
    const read = await get("/license.xml", BROWSER_NAVIGATION);
    assert.match(read.headers.get("content-type") ?? "", /^text\/html/, caddy.log());
    assert.match(await read.text(), /License for AI use/);

    const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
      name: "Crawler Co",
      email: "crawler@example.test",
    }, { now: folio.clock.now() });
    const paid = await get(paywall.path, {
      "user-agent": GPTBOT,
      authorization: `Bearer ${apiKey}`,
      "crawler-exact-price": price,
    });
    assert.equal(paid.status, 200, caddy.log());
    assert.equal(paid.headers.get("crawler-charged"), price);
    // The signed receipt of the charge reaches the client too.
    assert.match(paid.headers.get("folio-receipt") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(await paid.text(), origin.page(paywall.path));
    assert.equal(
      origin.lastHeaders()!.get("authorization"),
      null,
      "the buyer key stays with Folio",
    );
    const charges = async () =>
      Number(
        (await folio.deps.store.db.execute({
          sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
          args: [buyerId],
        })).rows[0].n,
      );
    assert.equal(await charges(), 1);

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
    const offer = { "crawler-exact-price": price };
    const signed = await get(paywall.path, {
      "user-agent": GPTBOT,
      ...offer,
      ...await signer.sign(`http://${HOST}:${caddy.port}${paywall.path}`, {
        headers: offer,
        cover: ["crawler-exact-price"],
      }),
    });
    assert.equal(signed.status, 200, caddy.log());
    assert.equal(signed.headers.get("crawler-charged"), price);
    assert.equal(await signed.text(), origin.page(paywall.path));

    // The origin's robots.txt disallows ClaudeBot: it pays on a free article.
    const observe = await demoPath(folio, "OBSERVE");
    const claude = await get(observe.path, { "user-agent": CLAUDEBOT });
    assert.equal(claude.status, 402);
    assert.ok(claude.headers.get("crawler-price"));
    await claude.body?.cancel();

    await folio.deps.store.db.execute({
      sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
      args: [paywall.id],
    });
    const blocked = await get(paywall.path, { "user-agent": GPTBOT });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.headers.get("crawler-error"), "CrawlerForbidden");
    await blocked.body?.cancel();

    assert.equal(await charges(), 2);

    // The call log names the door; the buyer's statement shows the reads.
    await folio.deps.callLog.flush();
    const logged = await folio.deps.store.db.execute(
      "SELECT COUNT(*) AS n FROM call_log WHERE tool = '_gate:forward_auth'",
    );
    assert.equal(Number(logged.rows[0].n), 6);
    const statement = await json<{ lines: { kind: string; amountUsdCents: number }[] }>(
      await folio.request("/api/marketplace/statement", {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    assert.ok(statement.lines.find((l) => l.kind === "landing"), "the paid reads are billed");
  },
});

Deno.test({
  name: "Caddy gate: when Folio is down, people pass and known crawlers are refused",
  ignore: skip !== null,
  async fn() {
    await using origin = startOrigin();
    const site = {
      domain: HOST,
      folioUrl: `http://127.0.0.1:${freePort()}`,
      originUrl: origin.url,
    };
    await using caddy = await startCaddy((port) =>
      caddyfile({ ...site, whenDown: "refuse-crawlers" }, port)
    );
    const person = await caddy.fetch(HOST, "/a/page", { headers: { "user-agent": BROWSER } });
    assert.equal(person.status, 200, caddy.log());
    assert.equal(await person.text(), origin.page("/a/page"));
    const bot = await caddy.fetch(HOST, "/a/page", { headers: { "user-agent": GPTBOT } });
    assert.equal(bot.status, 503, caddy.log());
    await bot.body?.cancel();
    await assertNoLicense(caddy);
    await using open = await startCaddy((port) => caddyfile({ ...site, whenDown: "open" }, port));
    await assertNoLicense(open);
  },
});
