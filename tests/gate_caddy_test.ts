/**
 * The crawler gate behind a real Caddy (issue 33): the `forward_auth` configuration the management
 * API hands a publisher (server/domain/crawlers/proxy_config.ts), run by Debian's Caddy in front of
 * a local static origin. Folio's refusals reach the client as Folio answers them.
 */
import assert from "node:assert/strict";
import { caddyConfig } from "../server/domain/crawlers/proxy_config_forward_auth.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { freePort, missing, startCaddy, startOrigin } from "./fixtures/proxies.ts";
import { json, startTestFolio } from "./helpers.ts";
import { BROWSER, demoPath, GPTBOT, HOST } from "./landing_helpers.ts";

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
    await using folio = await startTestFolio();
    await using origin = startOrigin();
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
    assert.equal(await paid.text(), origin.page(paywall.path));
    assert.equal(
      origin.lastHeaders()!.get("authorization"),
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
    const blocked = await get(paywall.path, { "user-agent": GPTBOT });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.headers.get("crawler-error"), "CrawlerForbidden");
    await blocked.body?.cancel();

    await folio.deps.callLog.flush();
    const logged = await folio.deps.store.db.execute(
      "SELECT COUNT(*) AS n FROM call_log WHERE tool = '_gate:forward_auth'",
    );
    assert.equal(Number(logged.rows[0].n), 4);
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
  },
});
