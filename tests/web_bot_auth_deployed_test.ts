/**
 * Web Bot Auth as deployed (issue 40): a crawler signing with the web-bot-auth library's default
 * components (`@authority`, `signature-agent`), plus the price header as Cloudflare documents,
 * with no path, pays once and only once, through real nginx and Caddy and on Folio's own pages.
 * Its second use is refused on the same page and on another one; a signature without a nonce is
 * spent as well.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { missing, startCaddy, startNginx, startOrigin } from "./fixtures/proxies.ts";
import { json, startTestFolio, type TestFolio } from "./helpers.ts";
import { GPTBOT, HOST, visit } from "./landing_helpers.ts";
import { startTestSigner, type TestSigner } from "./web_bot_auth_helpers.ts";

type Get = (path: string, headers: Record<string, string>) => Promise<Response>;

async function registeredSigner(folio: TestFolio, signer: TestSigner) {
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Deployed Crawler Inc",
    email: "deployed@example.test",
  }, { now: folio.clock.now() });
  const res = await folio.request("/api/marketplace/signature-agents", {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      ...await signer.sign(
        `http://127.0.0.1:${new URL(folio.url).port}/api/marketplace/signature-agents`,
        { defaults: true },
      ),
    },
    body: JSON.stringify({ agent: signer.agent }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  await res.body?.cancel();
  return buyerId;
}

async function paywallPaths(folio: TestFolio): Promise<string[]> {
  const rs = await folio.deps.store.db.execute(
    `SELECT site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
     AND kind = 'article' AND price_micros IS NULL ORDER BY id LIMIT 2`,
  );
  return rs.rows.map((r) => String(r.site_path));
}

async function chargesOf(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  return { n: Number(rs.rows[0].n) };
}

/** Pays with the deployed component set through `get`, then replays it; `authority` is what the crawler dials. */
async function payOnceOnly(
  folio: TestFolio,
  signer: TestSigner,
  buyerId: string,
  get: Get,
  authority: string,
  log: () => string,
) {
  const [first, second] = await paywallPaths(folio);
  const quote = await get(first, { "user-agent": GPTBOT });
  assert.equal(quote.status, 402, log());
  const offer = { "crawler-exact-price": quote.headers.get("crawler-price")! };
  await quote.body?.cancel();
  const before = await chargesOf(folio, buyerId);

  for (const nonce of [undefined, "none"] as const) {
    // The library's default component set plus the price header, in the library's order.
    const headers: Record<string, string> = {
      "user-agent": GPTBOT,
      ...offer,
      ...await signer.sign(`http://${authority}${first}`, {
        headers: offer,
        path: false,
        cover: ["crawler-exact-price"],
        noNonce: nonce === "none",
      }),
    };
    assert.match(
      headers["signature-input"],
      /^sig1=\("@authority" "signature-agent" "crawler-exact-price"\);/,
    );
    const paid = await get(first, headers);
    assert.equal(paid.status, 200, `${await paid.clone().text()}\n${log()}`);
    assert.equal(paid.headers.get("crawler-charged"), offer["crawler-exact-price"]);
    await paid.body?.cancel();
    for (const path of [first, second]) {
      const again = await get(path, headers);
      assert.equal(again.status, 400, `${path}: ${log()}`);
      assert.equal(again.headers.get("crawler-error"), "InvalidSignature");
      assert.match(await again.text(), /already used/);
    }
  }
  const after = await chargesOf(folio, buyerId);
  assert.equal(after.n - before.n, 2, "each signature paid once");
  const items = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ? AND kind = 'landing'",
    args: [buyerId],
  });
  assert.equal(Number(items.rows[0].n), after.n);
}

Deno.test("deployed Web Bot Auth on Folio's pages: paid once, its second use refused", async () => {
  await using folio = await startTestFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  await using signer = await startTestSigner({ now: () => folio.clock.now() });
  const buyerId = await registeredSigner(folio, signer);
  const authority = `${HOST}:${new URL(folio.url).port}`;
  await payOnceOnly(folio, signer, buyerId, (p, h) => visit(folio, p, h), authority, () => "");
});

for (const proxy of ["nginx", "caddy"] as const) {
  const skip = missing(proxy);
  Deno.test({
    name: `deployed Web Bot Auth through ${proxy}: paid once, its second use refused`,
    ignore: skip !== null,
    async fn() {
      await using folio = await startTestFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
      await using origin = startOrigin();
      await using signer = await startTestSigner({ now: () => folio.clock.now() });
      const buyerId = await registeredSigner(folio, signer);
      const conf = await json<Record<string, { config: string }>>(
        await folio.request(`/api/publisher/gate/config?origin=${origin.url}`, {
          headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
        }),
      );
      await using running = proxy === "nginx"
        ? await startNginx((port) =>
          conf.nginx.config.replace("listen 80;", `listen 127.0.0.1:${port};`)
        )
        : await startCaddy((port) =>
          conf.caddy.config.replace(`${HOST} {`, `http://${HOST}:${port} {`)
        );
      await payOnceOnly(
        folio,
        signer,
        buyerId,
        (p, h) => running.fetch(HOST, p, { headers: h }),
        `${HOST}:${running.port}`,
        () => running.log(),
      );
    },
  });
}
