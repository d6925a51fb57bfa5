/**
 * x402 across processes (issue 40; docs/decisions/x402.md): kill -9 while the facilitator has
 * settled on chain but before Folio heard back leaves a `settling` intent and no charge; the next
 * start reads the token's authorisation state and charges the read exactly once, with the
 * transaction that moved the money. One payment sent to two processes at once pays once.
 */
import assert from "node:assert/strict";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { loadConfig } from "../server/platform/config.ts";
import { openStore } from "../store/db.ts";
import { listX402Payments, payerBuyerId } from "../store/x402_payments.ts";
import { type SpawnedFolio, spawnFolio } from "./processes.ts";
import { demoPath, GPTBOT, HOST } from "./landing_helpers.ts";
import { type Chain, startChain, startFacilitator, x402Env } from "./fixtures/x402_chain.ts";
import type { TestFolio } from "./helpers.ts";

/** GETs `path` on the demo host of a spawned Folio. */
function onHost(folio: SpawnedFolio, client: Deno.HttpClient) {
  return (path: string, headers: Record<string, string> = {}) =>
    fetch(`http://${HOST}:${folio.port}${path}`, {
      headers: { "user-agent": GPTBOT, ...headers },
      client,
    });
}

function proxyTo(folio: SpawnedFolio): Deno.HttpClient {
  return Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(folio.port) },
  });
}

/** A fresh payment for the page's 402, signed by the payer with the packages' client. */
async function payment(chain: Chain, get: ReturnType<typeof onHost>, path: string) {
  const quote = await get(path);
  await quote.body?.cancel();
  assert.equal(quote.status, 402);
  const required = decodePaymentRequiredHeader(quote.headers.get("payment-required")!);
  const signature = encodePaymentSignatureHeader(
    await chain.client("payer").createPaymentPayload(required),
  );
  return { signature, micros: Number(required.accepts[0].amount) };
}

Deno.test("x402: kill -9 between settlement and charge is reconciled on start, charged once", async () => {
  await using chain = await startChain();
  await using facilitator = startFacilitator(chain);
  const env = x402Env(chain, facilitator.url);
  const dataDir = await Deno.makeTempDir({ prefix: "folio-x402-crash-" });
  const payer = chain.address("payer");
  await chain.mint(payer, 1_000_000n);

  const first = await spawnFolio(dataDir, { env });
  const client1 = proxyTo(first);
  const db = await openStore(loadConfig({ FOLIO_DATA_DIR: dataDir }).dbUrl, { now: new Date() });
  try {
    const paywall = await demoPath({ deps: { store: db } } as TestFolio, "PAYWALL");
    const get = onHost(first, client1);
    const { signature, micros } = await payment(chain, get, paywall.path);
    const before = await chain.balanceOf(payer);

    // The facilitator settles on chain, then holds its answer: Folio dies waiting for it.
    const held = facilitator.holdAnswers();
    const paid = get(paywall.path, { "payment-signature": signature }).catch(() => null);
    await held.settled;
    first.child.kill("SIGKILL");
    assert.equal((await first.child.status).signal, "SIGKILL");
    held.release();
    assert.equal(await paid, null, "the client never got an answer");
    client1.close();

    assert.equal(await chain.balanceOf(payer), before - BigInt(micros), "the money moved");
    const charges = async () =>
      (await db.db.execute({
        sql:
          "SELECT id, price_micros + fee_micros AS micros, paid_via FROM charges WHERE buyer_id = ?",
        args: [payerBuyerId(payer)],
      })).rows.map((r) => ({ id: String(r.id), micros: Number(r.micros), via: r.paid_via }));
    assert.deepEqual(await charges(), [], "no charge yet");
    let [intent] = await listX402Payments(db.db);
    assert.equal(intent.state, "settling", "the intent was recorded before settlement");

    // The next start reconciles with the chain: charged once, with the transaction.
    await using second = await spawnFolio(dataDir, { env: { ...env, FOLIO_SEED: "0" } });
    for (let i = 0; i < 1200 && intent.state !== "charged"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      [intent] = await listX402Payments(db.db);
    }
    assert.equal(intent.state, "charged");
    const [charge] = await charges();
    assert.deepEqual(await charges(), [{ id: charge.id, micros, via: "x402" }]);
    assert.equal(intent.chargeId, charge.id);
    assert.match(intent.txHash ?? "", /^0x[0-9a-f]{64}$/);

    // One payment sent to two processes at once pays once.
    await using third = await spawnFolio(dataDir, { env: { ...env, FOLIO_SEED: "0" } });
    const client2 = proxyTo(second);
    const client3 = proxyTo(third);
    try {
      const again = await payment(chain, onHost(second, client2), paywall.path);
      const moved = await chain.transfers();
      const answers = await Promise.all(
        [onHost(second, client2), onHost(third, client3)].map(async (g) => {
          const res = await g(paywall.path, { "payment-signature": again.signature });
          await res.body?.cancel();
          return res.status;
        }),
      );
      assert.deepEqual(answers.sort(), [200, 402]);
      assert.equal(await chain.transfers(), moved + 1);
      assert.equal((await charges()).length, 2);
    } finally {
      client2.close();
      client3.close();
    }
  } finally {
    db.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
