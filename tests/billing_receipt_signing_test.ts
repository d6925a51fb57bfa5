/**
 * Receipts signed off the serving thread (issue 39, server/domain/billing/receipt_signing.ts): many
 * charged reads at once each answer their own verifiable receipt, byte for byte the receipt the
 * serving thread would sign; a signing thread that fails loses no receipt; and a process killed
 * with SIGKILL under charged load loses no charge it acknowledged.
 */
import assert from "node:assert/strict";
import { compactVerify, createLocalJWKSet, exportJWK, generateKeyPair } from "jose";
import { ReceiptSigner } from "../server/domain/billing/receipt_signing.ts";
import {
  type PrivateJwk,
  signCompact,
  signingInput,
  signingKeyOf,
} from "../server/domain/billing/receipt_jws.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { json, testFolio } from "./helpers.ts";
import { spawnFolio } from "./processes.ts";

async function key(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
    crv: "Ed25519",
    extractable: true,
  });
  const jwk = await exportJWK(privateKey) as PrivateJwk;
  return {
    signing: { kid, jwk, key: await signingKeyOf(jwk) },
    jwks: createLocalJWKSet({ keys: [{ ...await exportJWK(publicKey), kid, alg: "EdDSA" }] }),
  };
}

const payload = (i: number) => JSON.stringify({ jti: `rct_${i}`, charge: { n: i } });

Deno.test("the signing thread answers each of 200 concurrent signatures, as the caller's thread would", async () => {
  const signer = new ReceiptSigner();
  try {
    const k = await key("rk_a");
    const inputs = Array.from({ length: 200 }, (_, i) => signingInput("rk_a", payload(i)));
    const signed = await Promise.all(inputs.map((input) => signer.sign(k.signing, input)));
    assert.equal(signer.started, 1, "signed on a thread");
    for (const [i, jws] of signed.entries()) {
      // Ed25519 is deterministic: the thread's receipt is the inline one, byte for byte.
      assert.equal(jws, await signCompact(inputs[i], k.signing.key));
      const { payload: got, protectedHeader } = await compactVerify(jws, k.jwks);
      assert.equal(new TextDecoder().decode(got), payload(i));
      assert.equal(protectedHeader.kid, "rk_a");
      assert.equal(protectedHeader.typ, "folio-receipt+jws");
    }
    // A second key reaches the thread with its first batch.
    const other = await key("rk_b");
    const jws = await signer.sign(other.signing, signingInput("rk_b", payload(0)));
    assert.equal((await compactVerify(jws, other.jwks)).protectedHeader.kid, "rk_b");
  } finally {
    signer.close();
  }
});

Deno.test("a signing thread that fails loses no receipt: what it held is signed here, a new thread signs next", async () => {
  const signer = new ReceiptSigner();
  try {
    const k = await key("rk_a");
    await signer.sign(k.signing, signingInput("rk_a", payload(0)));
    signer.crashForTest(); // the thread fails on its next message, ahead of these
    const inputs = Array.from({ length: 50 }, (_, i) => signingInput("rk_a", payload(i)));
    const signed = await Promise.all(inputs.map((input) => signer.sign(k.signing, input)));
    for (const [i, jws] of signed.entries()) {
      assert.equal(jws, await signCompact(inputs[i], k.signing.key));
      await compactVerify(jws, k.jwks);
    }
    // The failure is seen on its own event: later batches go to a fresh thread.
    const deadline = Date.now() + 30_000;
    while (signer.started < 2 && Date.now() < deadline) {
      await signer.sign(k.signing, signingInput("rk_a", payload(1)));
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(signer.started, 2);
    const after = await signer.sign(k.signing, signingInput("rk_a", payload(7)));
    assert.equal(after, await signCompact(signingInput("rk_a", payload(7)), k.signing.key));
  } finally {
    signer.close();
  }
  // Closed: signing still answers, on the caller's thread.
  const k = await key("rk_c");
  const jws = await signer.sign(k.signing, signingInput("rk_c", payload(3)));
  await compactVerify(jws, k.jwks);
});

Deno.test("80 concurrent charged REST reads each answer a verifiable receipt of their own ledger row", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio, "many");
  const ids = await paywalled(folio, 4);
  const reads = await Promise.all(
    Array.from({ length: 80 }, (_, i) => read(folio, apiKey, ids[i % ids.length], `k-${i}`)),
  );
  const { keys } = await json<{ keys: [] }>(await folio.request("/.well-known/jwks.json"));
  const jwks = createLocalJWKSet({ keys });
  const rows = await folio.deps.store.db.execute({
    sql:
      "SELECT id, idempotency_key, price_micros + fee_micros AS m FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  const ledger = new Map(rows.rows.map((r) => [String(r.id), r]));
  assert.equal(ledger.size, 80);
  const seen = new Set<string>();
  for (const [i, r] of reads.entries()) {
    assert.equal(r.status, 200);
    const jws = r.headers.get("folio-receipt")!;
    const claims = JSON.parse(new TextDecoder().decode((await compactVerify(jws, jwks)).payload));
    assert.equal(claims.sub, buyerId);
    const row = ledger.get(claims.charge.id);
    assert.ok(row, "the receipt names a ledger row");
    assert.equal(row.idempotency_key, `k-${i}`, "its own read's row");
    assert.equal(claims.charge.amountUsdMicros, Number(row.m));
    seen.add(claims.charge.id);
  }
  assert.equal(seen.size, 80);
  // A retry answers the first read's row and the same receipt.
  const again = await read(folio, apiKey, ids[0], "k-0");
  assert.equal(again.headers.get("folio-receipt"), reads[0].headers.get("folio-receipt"));
});

Deno.test("kill -9 under charged load loses no acknowledged charge", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-kill-charges-" });
  try {
    let apiKey = "";
    let ids: string[] = [];
    {
      await using setup = await testFolio({ dataDir });
      apiKey = (await signup(setup, "killed")).apiKey;
      ids = await paywalled(setup, 4);
    }
    const child = await spawnFolio(dataDir, { env: { FOLIO_SEED: "0" } });
    const client = Deno.createHttpClient({
      proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(child.port) },
    });
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let killed = false;
    const loop = async (n: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await fetch(
            `http://demo.localhost:${child.port}/api/v1/articles/${ids[n % 4]}?last_user_prompt=q`,
            {
              client,
              headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": `${n}-${i}` },
            },
          );
          const body = await res.text();
          if (res.status !== 200) failures.push(`${res.status} ${body}`);
          const receipt = res.headers.get("folio-receipt");
          if (res.status === 200 && receipt) {
            const body = JSON.parse(
              atob(receipt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")),
            );
            acknowledged.push(body.charge.id);
          }
        } catch {
          return; // the process is gone
        }
      }
    };
    const loops = Array.from({ length: 8 }, (_, n) => loop(n));
    while (acknowledged.length < 150) {
      assert.deepEqual(failures, [], "every read before the kill is charged");
      await new Promise((r) => setTimeout(r, 10));
    }
    child.child.kill("SIGKILL");
    killed = true;
    await child.child.status;
    await Promise.all(loops);
    client.close();
    await using after = await testFolio({ dataDir });
    const rs = await after.deps.store.db.execute("SELECT id FROM charges");
    const ledger = new Set(rs.rows.map((r) => String(r.id)));
    const lost = acknowledged.filter((id) => !ledger.has(id));
    assert.deepEqual(lost, [], `${acknowledged.length} acknowledged`);
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
