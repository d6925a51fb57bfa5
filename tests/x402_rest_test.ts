/**
 * x402 on REST's get_article (docs/decisions/x402.md "REST"): an anonymous caller past the
 * paywall meter gets 402 with PAYMENT-REQUIRED at REST's price (no landing fee); the packages'
 * client pays it on anvil and gets the article, one charge collected on chain, its receipt; the
 * same payment again is refused and charges nothing.
 */
import assert from "node:assert/strict";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { payerBuyerId } from "../store/x402_payments.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { startChain, startFacilitator, x402Env } from "./fixtures/x402_chain.ts";

function restFetch(folio: TestFolio): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    return await folio.request(`${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
    });
  };
}

Deno.test("x402 on REST: past the meter, the packages' client pays REST's price once", async () => {
  await using chain = await startChain();
  await using facilitator = startFacilitator(chain);
  await using folio = await testFolio({ env: x402Env(chain, facilitator.url) });
  const payer = chain.address("payer");
  await chain.mint(payer, 1_000_000n);
  const ids = (await folio.store.db.execute(
    `SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
       AND kind = 'article' ORDER BY id LIMIT 4`,
  )).rows.map((r) => String(r.id));
  const pathOf = (id: string) =>
    `/api/v1/publishers/pub_demo/articles/${encodeURIComponent(id)}?last_user_prompt=read`;
  const path = pathOf(ids[3]);

  // Free reads while the meter lasts (three distinct articles) carry no payment terms.
  for (const id of ids.slice(0, 3)) {
    const res = await folio.request(pathOf(id));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("payment-required"), null);
    await res.body?.cancel();
  }
  const quote = await folio.request(path);
  assert.equal(quote.status, 402);
  assert.equal((await quote.json()).status, "payment_required");
  const required = decodePaymentRequiredHeader(quote.headers.get("payment-required")!);
  const price = Number(required.accepts[0].amount);
  assert.ok(price > 0);
  assert.equal(new URL(required.resource.url).pathname, new URL(path, "http://x").pathname);

  let signature = "";
  const recording: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    signature = req.headers.get("payment-signature") ?? signature;
    return await restFetch(folio)(req);
  };
  const before = await chain.balanceOf(payer);
  const paid = await chain.payingFetch("payer", recording)(required.resource.url);
  const body = await paid.json();
  assert.equal(paid.status, 200, JSON.stringify(body));
  assert.ok(body.article.body.length > 0, "the full article");
  assert.equal(decodePaymentResponseHeader(paid.headers.get("payment-response")!).success, true);
  assert.match(paid.headers.get("folio-receipt") ?? "", /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(await chain.balanceOf(payer), before - BigInt(price));

  const charges = async () =>
    (await folio.store.db.execute({
      sql: `SELECT price_micros, fee_micros, paid_via, surface FROM charges WHERE buyer_id = ?`,
      args: [payerBuyerId(payer)],
    })).rows.map((r) => [Number(r.price_micros) + Number(r.fee_micros), r.paid_via, r.surface]);
  assert.deepEqual(await charges(), [[price, "x402", "rest"]]);

  const moved = await chain.transfers();
  const replay = await folio.request(path, { headers: { "payment-signature": signature } });
  assert.equal(replay.status, 402);
  await replay.body?.cancel();
  assert.match(
    decodePaymentRequiredHeader(replay.headers.get("payment-required")!).error ?? "",
    /already used/,
  );
  assert.deepEqual(await charges(), [[price, "x402", "rest"]]);
  assert.equal(await chain.transfers(), moved);
});
