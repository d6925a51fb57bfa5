/**
 * x402 v2 on the landing path (issue 40; docs/decisions/x402.md), against real parts: anvil, an
 * EIP-3009 token compiled with solc, the `@x402/*` packages' facilitator over HTTP, and the
 * packages' own client paying with a viem account. A paid read is served once, moves exactly the
 * price plus the fee, and is itemised, receipted, on the statement, in Traffic and in the payout;
 * replayed, underpaid, mismatched and unsettled payments are refused, charging and moving nothing.
 */
import assert from "node:assert/strict";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { closeMonth } from "../server/domain/billing/close.ts";
import { payoutsDue } from "../server/domain/billing/payouts_due.ts";
import { parseCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { listX402Payments, payerBuyerId } from "../store/x402_payments.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bodySample, demoPath, GPTBOT, HOST, RSL_LINK } from "./landing_helpers.ts";
import { setPayee } from "./payout_helpers.ts";
import { type Chain, startChain, startFacilitator, x402Env } from "./fixtures/x402_chain.ts";

/** The payers' fetch into the in-process Folio: a URL on the demo host, as a client sends it. */
function folioFetch(folio: TestFolio): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    return await folio.request(`${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      host: url.hostname,
    });
  };
}

async function chargesOf(folio: TestFolio) {
  const rs = await folio.store.db.execute(
    "SELECT id, buyer_id, price_micros, fee_micros, paid_via FROM charges ORDER BY created_at",
  );
  return rs.rows.map((r) => ({
    id: String(r.id),
    buyerId: String(r.buyer_id),
    micros: Number(r.price_micros) + Number(r.fee_micros),
    priceMicros: Number(r.price_micros),
    paidVia: r.paid_via === null ? null : String(r.paid_via),
  }));
}

async function quote(folio: TestFolio, path: string): Promise<Response> {
  return await folio.request(path, { host: HOST, headers: { "user-agent": GPTBOT } });
}

async function requiredOf(res: Response): Promise<PaymentRequired> {
  await res.body?.cancel();
  const header = res.headers.get("payment-required");
  assert.ok(header, `a PAYMENT-REQUIRED header on ${res.status}`);
  return decodePaymentRequiredHeader(header);
}

/** A payment for `required`, signed by `role` with the packages' client (tampered if asked). */
async function signedFor(chain: Chain, role: "payer" | "poor", required: PaymentRequired) {
  return encodePaymentSignatureHeader(await chain.client(role).createPaymentPayload(required));
}

Deno.test("x402: a paid read is served once and reconciles with the chain; bad payments charge nothing", async (t) => {
  await using chain = await startChain();
  await using facilitator = startFacilitator(chain);
  await using folio = await testFolio({ env: x402Env(chain, facilitator.url) });
  const paywall = await demoPath(folio, "PAYWALL");
  const other = (await folio.store.db.execute(
    `SELECT site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
       AND kind = 'article' AND site_path != ? ORDER BY id LIMIT 1`,
    [paywall.path],
  )).rows[0].site_path as string;
  const payer = chain.address("payer");
  const payTo = chain.address("payTo");
  await chain.mint(payer, 10_000_000n); // 10 USD
  await chain.mint(chain.address("poor"), 1n);

  const first = await quote(folio, paywall.path);
  const price = parseCrawlerPrice(first.headers.get("crawler-price")!)!;
  // As the app sees the request (in process: the test's port).
  const resource = (await requiredOf(first.clone())).resource.url;

  await t.step("the 402 speaks x402, pay-per-crawl and RSL at once", async () => {
    assert.equal(first.status, 402);
    assert.match(first.headers.get("link")!, RSL_LINK);
    assert.match(first.headers.get("www-authenticate")!, /^License /);
    const required = await requiredOf(first);
    assert.equal(required.x402Version, 2);
    assert.equal(new URL(required.resource.url).hostname, HOST);
    assert.equal(new URL(required.resource.url).pathname, paywall.path);
    assert.equal(required.accepts.length, 1);
    const [req] = required.accepts;
    assert.equal(req.scheme, "exact");
    assert.equal(req.network, "eip155:31337");
    assert.equal(req.asset.toLowerCase(), chain.token.toLowerCase());
    assert.equal(req.payTo.toLowerCase(), payTo.toLowerCase());
    // Price plus the platform fee, one base unit per micro-dollar.
    assert.equal(req.amount, String(price));
    assert.equal(req.extra.name, "Folio Test Dollar");
    assert.equal(req.extra.version, "2");
  });

  let paidSignature = "";
  await t.step(
    "the packages' client pays: served once, balances move by exactly the price",
    async () => {
      const before = { payer: await chain.balanceOf(payer), payTo: await chain.balanceOf(payTo) };
      const recording: typeof fetch = async (input, init) => {
        const req = new Request(input, init);
        paidSignature = req.headers.get("payment-signature") ?? paidSignature;
        return await folioFetch(folio)(req);
      };
      const res = await chain.payingFetch("payer", recording)(resource, {
        headers: { "user-agent": GPTBOT },
      });
      const page = await res.text();
      assert.equal(res.status, 200, page.slice(0, 300));
      assert.ok(page.includes(await bodySample(folio, paywall.id)), "the whole article is served");
      assert.ok(paidSignature, "the client retried with PAYMENT-SIGNATURE");
      const settled = decodePaymentResponseHeader(res.headers.get("payment-response")!);
      assert.equal(settled.success, true);
      assert.match(settled.transaction, /^0x[0-9a-f]{64}$/);
      assert.equal(settled.payer?.toLowerCase(), payer.toLowerCase());
      assert.equal(parseCrawlerPrice(res.headers.get("crawler-charged")!), price);

      assert.equal(await chain.balanceOf(payer), before.payer - BigInt(price));
      assert.equal(await chain.balanceOf(payTo), before.payTo + BigInt(price));

      // The ledger: one charge, collected on chain, the payer's own account billed.
      const charges = await chargesOf(folio);
      assert.equal(charges.length, 1);
      assert.deepEqual(
        { buyerId: charges[0].buyerId, micros: charges[0].micros, paidVia: charges[0].paidVia },
        { buyerId: payerBuyerId(payer), micros: price, paidVia: "x402" },
      );
      const [payment] = await listX402Payments(folio.store.db);
      assert.equal(payment.state, "charged");
      assert.equal(payment.txHash, settled.transaction);
      assert.equal(payment.chargeId, charges[0].id);
      assert.equal(payment.amountMicros, price);

      // The receipt is the ledger row, signed like every charged read's.
      const jwks = await json<JSONWebKeySet>(await folio.request("/.well-known/jwks.json"));
      const { payload } = await jwtVerify(
        res.headers.get("folio-receipt")!,
        createLocalJWKSet(jwks),
      );
      const item = (payload as { charge: Record<string, unknown> }).charge;
      assert.equal(item.id, charges[0].id);
      assert.equal(item.amountUsdMicros, price);
      assert.equal(item.prepaid, true);
    },
  );

  await t.step("a replayed payment is refused: nothing charged, nothing moved", async () => {
    const moved = await chain.transfers();
    const settles = facilitator.settles;
    const res = await folio.request(paywall.path, {
      host: HOST,
      headers: { "user-agent": GPTBOT, "payment-signature": paidSignature },
    });
    assert.equal(res.status, 402);
    const required = await requiredOf(res);
    assert.match(required.error ?? "", /already used/);
    assert.equal((await chargesOf(folio)).length, 1);
    assert.equal(await chain.transfers(), moved);
    assert.equal(facilitator.settles, settles, "never sent for settlement");
  });

  await t.step(
    "underpaid, another resource, payee or token: refused before settlement",
    async () => {
      const moved = await chain.transfers();
      const settles = facilitator.settles;
      const required = await requiredOf(await quote(folio, paywall.path));
      const cases: [string, PaymentRequired, string, RegExp][] = [
        [
          "underpaid",
          { ...required, accepts: [{ ...required.accepts[0], amount: String(price - 1) }] },
          paywall.path,
          /Underpaid/,
        ],
        ["for another page", required, other, /another resource/],
        [
          "to another payee",
          { ...required, accepts: [{ ...required.accepts[0], payTo: payer }] },
          paywall.path,
          /Pay to/,
        ],
        [
          "in another token",
          { ...required, accepts: [{ ...required.accepts[0], asset: payTo }] },
          paywall.path,
          /Pay in the token/,
        ],
      ];
      for (const [name, terms, path, why] of cases) {
        const res = await folio.request(path, {
          host: HOST,
          headers: {
            "user-agent": GPTBOT,
            "payment-signature": await signedFor(chain, "payer", terms),
          },
        });
        assert.equal(res.status, 402, name);
        assert.match((await requiredOf(res)).error ?? "", why, name);
      }
      assert.equal((await chargesOf(folio)).length, 1);
      assert.equal(await chain.transfers(), moved);
      assert.equal(facilitator.settles, settles);
    },
  );

  await t.step(
    "a payer without the funds, or a facilitator that cannot settle: no charge",
    async () => {
      const moved = await chain.transfers();
      const required = await requiredOf(await quote(folio, paywall.path));
      const poor = await folio.request(paywall.path, {
        host: HOST,
        headers: {
          "user-agent": GPTBOT,
          "payment-signature": await signedFor(chain, "poor", required),
        },
      });
      assert.equal(poor.status, 402);
      assert.match((await requiredOf(poor)).error ?? "", /did not verify|did not settle/);

      // The facilitator has no gas left: verification passes, the settlement fails on chain.
      await chain.setGas(chain.address("facilitator"), 0n);
      const payerBefore = await chain.balanceOf(payer);
      const stuck = await folio.request(paywall.path, {
        host: HOST,
        headers: {
          "user-agent": GPTBOT,
          "payment-signature": await signedFor(chain, "payer", required),
        },
      });
      assert.equal(stuck.status, 402);
      assert.match((await requiredOf(stuck)).error ?? "", /did not settle/);
      assert.equal(await chain.balanceOf(payer), payerBefore);
      assert.equal(await chain.transfers(), moved);
      assert.equal((await chargesOf(folio)).length, 1);
      const states = (await listX402Payments(folio.store.db)).map((p) => p.state);
      assert.deepEqual(states.filter((s) => s !== "charged"), ["failed"]);
      await chain.setGas(chain.address("facilitator"), 10n ** 20n);
    },
  );

  await t.step(
    "the read is in the call log, Traffic, the closed month and the payout",
    async () => {
      const publisher = { authorization: `Bearer ${folio.seeded!.apiKey}` };
      await folio.deps.callLog.flush();
      const traffic = await json<{ series: { agent: { key: string; kind: string } }[] }>(
        await folio.request("/api/publisher/analytics/traffic?days=7", { headers: publisher }),
      );
      const buyerId = payerBuyerId(payer);
      assert.ok(
        traffic.series.some((s) => s.agent.key === `buyer:${buyerId}`),
        JSON.stringify(traffic.series.map((s) => s.agent)),
      );
      folio.clock.set(new Date("2026-12-01T01:00:00Z"));
      await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
      const invoice = (await folio.store.db.execute({
        sql:
          "SELECT total_micros, prepaid_micros, amount_due_micros, state FROM invoices WHERE buyer_id = ?",
        args: [buyerId],
      })).rows[0];
      assert.deepEqual(
        [
          Number(invoice.total_micros),
          Number(invoice.prepaid_micros),
          Number(invoice.amount_due_micros),
          invoice.state,
        ],
        [price, price, 0, "paid"],
        "collected on chain: nothing due",
      );
      await (await setPayee(folio)).body?.cancel();
      const [due] = await payoutsDue(folio.store.db, "2026-11");
      const [charge] = await chargesOf(folio);
      assert.equal(due.collectedShareMicros, charge.priceMicros, "the publisher's own price");
    },
  );
});
