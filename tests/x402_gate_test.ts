/**
 * x402 through the crawler gate (issue 40; docs/decisions/x402.md): real nginx and Caddy run the
 * configuration the management API hands out, in front of a local origin; the packages' client
 * pays on anvil through each, and through Folio itself in reverse-proxy mode. The 402 carries
 * PAYMENT-REQUIRED beside the pay-per-crawl and RSL headers, the paid retry reaches the origin
 * with PAYMENT-RESPONSE, and its replay is refused.
 */
import assert from "node:assert/strict";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { parseCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { payerBuyerId } from "../store/x402_payments.ts";
import {
  missing,
  type RunningProxy,
  startCaddy,
  startNginx,
  startOrigin,
} from "./fixtures/proxies.ts";
import { json, startTestFolio, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { demoPath, GPTBOT, HOST } from "./landing_helpers.ts";
import { startChain, startFacilitator, x402Env } from "./fixtures/x402_chain.ts";

const skip = missing("nginx") ?? missing("caddy");
if (skip) console.warn(`x402_gate_test: ${skip}`);

type Proxy = "nginx" | "caddy";

async function proxyFor(folio: TestFolio, which: Proxy, originUrl: string): Promise<RunningProxy> {
  const confs = await json<Record<Proxy, { config: string }>>(
    await folio.request(`/api/publisher/gate/config?origin=${originUrl}`, {
      headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
    }),
  );
  return which === "nginx"
    ? await startNginx((port) =>
      confs.nginx.config.replace("listen 80;", `listen 127.0.0.1:${port};`)
    )
    : await startCaddy((port) =>
      confs.caddy.config.replace(`${HOST} {`, `http://${HOST}:${port} {`)
    );
}

for (const which of ["nginx", "caddy"] as const) {
  Deno.test({
    name: `x402 through the ${which} gate: paid once, served by the origin, replay refused`,
    ignore: skip !== null,
    async fn() {
      await using chain = await startChain();
      await using facilitator = startFacilitator(chain);
      await using folio = await startTestFolio({ env: x402Env(chain, facilitator.url) });
      await using origin = startOrigin();
      await using proxy = await proxyFor(folio, which, origin.url);
      const paywall = await demoPath(folio, "PAYWALL");
      const payer = chain.address("payer");
      await chain.mint(payer, 1_000_000n);

      const quote = await proxy.fetch(HOST, paywall.path, { headers: { "user-agent": GPTBOT } });
      assert.equal(quote.status, 402, proxy.log());
      await quote.body?.cancel();
      const price = parseCrawlerPrice(quote.headers.get("crawler-price")!)!;
      assert.match(quote.headers.get("link") ?? "", /license\.xml>; rel="license"/);
      assert.match(quote.headers.get("www-authenticate") ?? "", /^License /);
      const required = decodePaymentRequiredHeader(quote.headers.get("payment-required")!);
      assert.equal(required.accepts[0].amount, String(price));
      assert.equal(new URL(required.resource.url).pathname, paywall.path);

      // The packages' client, its requests sent to the proxy as a client resolving HOST would.
      let signature = "";
      const viaProxy: typeof fetch = async (input, init) => {
        const req = new Request(input, init);
        signature = req.headers.get("payment-signature") ?? signature;
        const url = new URL(req.url);
        return await proxy.fetch(HOST, `${url.pathname}${url.search}`, {
          method: req.method,
          headers: req.headers,
        });
      };
      const before = await chain.balanceOf(payer);
      const paid = await chain.payingFetch("payer", viaProxy)(required.resource.url, {
        headers: { "user-agent": GPTBOT },
      });
      assert.equal(paid.status, 200, proxy.log());
      assert.equal(await paid.text(), origin.page(paywall.path), "the origin's own page");
      assert.equal(parseCrawlerPrice(paid.headers.get("crawler-charged")!), price);
      assert.match(paid.headers.get("folio-receipt") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const settled = decodePaymentResponseHeader(paid.headers.get("payment-response")!);
      assert.equal(settled.success, true);
      assert.equal(await chain.balanceOf(payer), before - BigInt(price));
      assert.equal(
        await chain.balanceOf(chain.address("payTo")),
        BigInt(price),
        "the operator received exactly price plus fee",
      );

      const charges = async () =>
        (await folio.store.db.execute({
          sql:
            "SELECT price_micros + fee_micros AS micros, paid_via FROM charges WHERE buyer_id = ?",
          args: [payerBuyerId(payer)],
        })).rows.map((r) => [Number(r.micros), r.paid_via]);
      assert.deepEqual(await charges(), [[price, "x402"]]);

      // The same payment again: refused with the reason, nothing charged, nothing moved.
      const moved = await chain.transfers();
      const replay = await proxy.fetch(HOST, paywall.path, {
        headers: { "user-agent": GPTBOT, "payment-signature": signature },
      });
      assert.equal(replay.status, 402, proxy.log());
      await replay.body?.cancel();
      assert.match(
        decodePaymentRequiredHeader(replay.headers.get("payment-required")!).error ?? "",
        /already used/,
      );
      assert.deepEqual(await charges(), [[price, "x402"]]);
      assert.equal(await chain.transfers(), moved);
    },
  });
}

Deno.test("x402 in reverse-proxy mode: Folio gates, pays and forwards to the origin", async () => {
  await using chain = await startChain();
  await using facilitator = startFacilitator(chain);
  await using folio = await testFolio({
    env: { ...x402Env(chain, facilitator.url), FOLIO_FETCH_ALLOW_LOOPBACK: "1" },
  });
  await using origin = startOrigin();
  const set = await sendJson(folio, "PATCH", "/api/publisher/settings", {
    originUrl: origin.url,
  }, bearer(folio.seeded!.apiKey));
  assert.equal(set.status, 200);
  await set.body?.cancel();
  const paywall = await demoPath(folio, "PAYWALL");
  const payer = chain.address("payer");
  await chain.mint(payer, 1_000_000n);
  const viaFolio: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    return await folio.request(`${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      host: HOST,
    });
  };
  const quote = await viaFolio(`http://${HOST}${paywall.path}`, {
    headers: { "user-agent": GPTBOT },
  });
  assert.equal(quote.status, 402);
  await quote.body?.cancel();
  const required = decodePaymentRequiredHeader(quote.headers.get("payment-required")!);
  const paid = await chain.payingFetch("payer", viaFolio)(required.resource.url, {
    headers: { "user-agent": GPTBOT },
  });
  assert.equal(paid.status, 200);
  assert.equal(await paid.text(), origin.page(paywall.path), "the origin's own page");
  assert.equal(decodePaymentResponseHeader(paid.headers.get("payment-response")!).success, true);
  assert.equal(
    await chain.balanceOf(chain.address("payTo")),
    BigInt(required.accepts[0].amount),
  );
});
