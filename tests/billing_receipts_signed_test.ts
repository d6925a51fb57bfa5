/**
 * Receipts (issue 39, server/domain/billing/receipt_jws.ts): a receipt is the compact JWS jose's
 * `CompactSign` makes for the same header and payload, byte for byte; many charged reads at once
 * each answer their own verifiable receipt; and a process killed with SIGKILL under charged load
 * loses no charge it acknowledged.
 */
import assert from "node:assert/strict";
import { CompactSign, compactVerify, createLocalJWKSet, exportJWK, generateKeyPair } from "jose";
import {
  type PrivateJwk,
  privateKeyOf,
  RECEIPT_TYP,
  signCompact,
  signingInput,
} from "../server/domain/billing/receipt_jws.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { json, testFolio } from "./helpers.ts";
import { spawnFolio } from "./processes.ts";

Deno.test("a receipt is jose's CompactSign of the same header and payload, byte for byte", async () => {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
    crv: "Ed25519",
    extractable: true,
  });
  const key = privateKeyOf(await exportJWK(privateKey) as PrivateJwk);
  const jwks = createLocalJWKSet({
    keys: [{ ...await exportJWK(publicKey), kid: "rk_a", alg: "EdDSA" }],
  });
  for (let i = 0; i < 50; i++) {
    // Payloads with non-ASCII text and every base64url edge (lengths mod 3).
    const payload = JSON.stringify({ jti: `rct_${i}`, title: "Café ".repeat(i % 3), n: i });
    const jws = signCompact(signingInput("rk_a", payload), key);
    const byJose = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: "EdDSA", kid: "rk_a", typ: RECEIPT_TYP })
      .sign(privateKey);
    assert.equal(jws, byJose);
    const verified = await compactVerify(jws, jwks);
    assert.equal(new TextDecoder().decode(verified.payload), payload);
    assert.equal(verified.protectedHeader.typ, "folio-receipt+jws");
  }
  // An altered payload no longer verifies.
  const [h, , s] = signCompact(signingInput("rk_a", "{}"), key).split(".");
  const forged = `${h}.${btoa('{"n":1}').replace(/=+$/, "")}.${s}`;
  await assert.rejects(compactVerify(forged, jwks));
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
