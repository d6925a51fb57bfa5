/**
 * Signed receipts (issue 29 item 6): every charged read answers with a compact JWS over its charge
 * item, on REST, MCP, A2A and the landing path; a buyer verifies them offline against the JWKS
 * fetched over HTTP, sums them and finds its statement's total; altered or forged receipts fail;
 * a key rotation keeps old receipts verifiable.
 */
import assert from "node:assert/strict";
import { setArticlePolicy } from "../store/articles.ts";
import {
  CompactSign,
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
} from "jose";
import { formatCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { message, rpc } from "../server/surfaces/a2a/_test_utils.ts";
import { json, startTestFolio, type TestFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { initialize, post } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Claims = { iss: string; sub: string; jti: string; iat: number; charge: any };

const decoder = new TextDecoder();

async function jwks(folio: TestFolio): Promise<JSONWebKeySet> {
  const res = await fetch(new URL("/.well-known/jwks.json", folio.url));
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^application\/jwk-set\+json/);
  return await res.json();
}

async function verify(jws: string, keys: JSONWebKeySet) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keys));
  return { claims: JSON.parse(decoder.decode(payload)) as Claims, header: protectedHeader };
}

/** One charged read on each surface; returns the receipts the answers carried. */
async function readEverywhere(folio: TestFolio, apiKey: string, ids: string[]) {
  const auth = `Bearer ${apiKey}`;
  const out: string[] = [];
  const rest = await read(folio, apiKey, ids[0], "r-1");
  out.push(rest.headers.get("folio-receipt")!);
  const retry = await read(folio, apiKey, ids[0], "r-1");
  assert.equal(retry.headers.get("folio-receipt"), out[0], "a retry answers the same receipt");
  out.push(retry.headers.get("folio-receipt")!);

  const { sessionId } = await initialize(folio, { headers: { authorization: auth } });
  const mcp = await post(folio, {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "get_article", arguments: { url_or_id: ids[1] } },
  }, { sessionId, headers: { authorization: auth, "mcp-protocol-version": "2025-06-18" } });
  const sc = (await mcp.json()).result.structuredContent;
  assert.equal(sc.receiptId, sc.chargeId.replace(/^chg_/, "rct_"));
  out.push(sc.receipt);

  const a2a = await rpc(folio, "SendMessage", {
    message: message("1.0", { data: { skill: "get_article", url_or_id: ids[2] } }),
  }, { auth });
  // deno-lint-ignore no-explicit-any
  const parts: any[] = a2a.body.result.task.status.message.parts;
  out.push(parts.find((p) => p.data?.receipt).data.receipt);

  const site = await folio.deps.store.db.execute({
    sql: "SELECT site_path FROM articles WHERE id = ?",
    args: [ids[3]],
  });
  const landing = await folio.request(String(site.rows[0].site_path), {
    host: HOST,
    headers: {
      authorization: auth,
      "user-agent": GPTBOT,
      "crawler-max-price": formatCrawlerPrice(1_000_000),
    },
  });
  await landing.body?.cancel();
  assert.equal(landing.status, 200);
  out.push(landing.headers.get("folio-receipt")!);
  for (const r of out) assert.match(r ?? "", /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  return out;
}

Deno.test("a month's receipts verify against the JWKS fetched over HTTP and sum to the statement", async () => {
  await using folio = await startTestFolio();
  // Fetched before any charge: the set already holds the key the receipts will name.
  const early = await jwks(folio);
  assert.equal(early.keys.length, 1);
  const { buyerId, apiKey } = await signup(folio, "receipts");
  const ids = await paywalled(folio, 4);
  const receipts = await readEverywhere(folio, apiKey, ids);
  const keys = await jwks(folio);
  assert.equal(keys.keys.length, 1);
  assert.equal(keys.keys[0].kty, "OKP");
  assert.equal(keys.keys[0].crv, "Ed25519");
  assert.equal((keys.keys[0] as { d?: string }).d, undefined, "no private half is published");

  // The buyer's reconciliation: verify each, count each receipt once (a retry repeats one).
  const byId = new Map<string, Claims>();
  const remote = createRemoteJWKSet(new URL("/.well-known/jwks.json", folio.url));
  for (const jws of receipts) {
    const { claims, header } = await verify(jws, keys);
    assert.deepEqual(
      [header.alg, header.typ, header.kid],
      ["EdDSA", "folio-receipt+jws", keys.keys[0].kid],
    );
    assert.equal((await compactVerify(jws, remote)).protectedHeader.kid, header.kid);
    await verify(jws, early);
    assert.equal(claims.sub, buyerId);
    assert.equal(claims.iss, folio.deps.config.baseUrl);
    assert.equal(claims.jti, claims.charge.receiptId);
    byId.set(claims.jti, claims);
  }
  assert.equal(byId.size, 4, "four reads, one retry");
  assert.deepEqual(
    new Set([...byId.values()].map((c) => c.charge.surface)),
    new Set(["rest", "mcp", "a2a", "landing"]),
  );
  const sum = [...byId.values()].reduce((t, c) => t + c.charge.amountUsdMicros, 0);
  const statement = await json<{ totalUsdMicros: number; month: string }>(
    await folio.request("/api/marketplace/statement", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  assert.ok(sum > 0);
  assert.equal(sum, statement.totalUsdMicros, "receipts add up to the statement exactly");
  assert.ok([...byId.values()].every((c) => c.charge.statementMonth === statement.month));

  // The item route signs the same item into the same receipt (Ed25519 is deterministic).
  const first = [...byId.values()].find((c) => c.charge.surface === "rest")!;
  const item = await json<{ receipt: string }>(
    await folio.request(`/api/marketplace/items/${first.charge.id}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  assert.equal(item.receipt, receipts[0]);
});

Deno.test("an altered or forged receipt fails verification", async () => {
  await using folio = await startTestFolio();
  const { apiKey } = await signup(folio, "forger");
  const [id] = await paywalled(folio, 1);
  const jws = (await read(folio, apiKey, id)).headers.get("folio-receipt")!;
  const keys = await jwks(folio);
  await verify(jws, keys); // the real one verifies

  const [head, body, sig] = jws.split(".");
  const claims = JSON.parse(decoder.decode(base64url(body)));
  claims.charge.amountUsdMicros = 1;
  const altered = `${head}.${encode(JSON.stringify(claims))}.${sig}`;
  await assert.rejects(verify(altered, keys), /signature verification failed/);

  // Signed by someone else's key under Folio's kid.
  const other = await generateKeyPair("EdDSA", { crv: "Ed25519" });
  const forged = await new CompactSign(base64url(body))
    .setProtectedHeader({ alg: "EdDSA", kid: keys.keys[0].kid, typ: "folio-receipt+jws" })
    .sign(other.privateKey);
  await assert.rejects(verify(forged, keys), /signature verification failed/);

  // A kid Folio never published.
  const stranger = await new CompactSign(base64url(body))
    .setProtectedHeader({ alg: "EdDSA", kid: "rk_nobody" })
    .sign(other.privateKey);
  await assert.rejects(verify(stranger, keys), /no applicable key found/);
  assert.ok(await exportJWK(other.publicKey));
});

Deno.test("after a key rotation new receipts carry the new kid and old receipts still verify", async () => {
  await using folio = await startTestFolio();
  const { apiKey } = await signup(folio, "rotation");
  const [a, b] = await paywalled(folio, 2);
  const before = (await read(folio, apiKey, a)).headers.get("folio-receipt")!;
  const oldKid = (await verify(before, await jwks(folio))).header.kid;
  const newKid = await folio.deps.receipts.rotate();
  assert.notEqual(newKid, oldKid);
  const after = (await read(folio, apiKey, b)).headers.get("folio-receipt")!;
  const keys = await jwks(folio);
  assert.deepEqual(keys.keys.map((k) => k.kid), [newKid, oldKid], "signing key first, old kept");
  assert.equal((await verify(after, keys)).header.kid, newKid);
  assert.equal((await verify(before, keys)).header.kid, oldKid);
});

function base64url(s: string): Uint8Array {
  const bin = atob(s.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function encode(s: string): string {
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

Deno.test("with FOLIO_RECEIPT_KEY_SECRET the private key is stored encrypted, and still signs", async () => {
  await using folio = await startTestFolio({ env: { FOLIO_RECEIPT_KEY_SECRET: "correct horse" } });
  const { apiKey } = await signup(folio, "sealed");
  const [id] = await paywalled(folio, 1);
  const jws = (await read(folio, apiKey, id)).headers.get("folio-receipt")!;
  await verify(jws, await jwks(folio));
  const rs = await folio.deps.store.db.execute("SELECT private_jwk FROM receipt_keys");
  const stored = String(rs.rows[0].private_jwk);
  assert.equal(stored.split(".").length, 5, "a compact JWE");
  assert.ok(!stored.includes('"d"'));
});

Deno.test("POST /receipts/verify accepts Folio's receipts and refuses forged ones with a clear error", async () => {
  await using folio = await startTestFolio();
  const { buyerId, apiKey } = await signup(folio, "checker");
  const [id] = await paywalled(folio, 1);
  const jws = (await read(folio, apiKey, id)).headers.get("folio-receipt")!;
  const check = (receipt: unknown) =>
    folio.request("/api/marketplace/receipts/verify", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ receipt }),
    });
  const ok = await json<Claims & { valid: boolean; matchesLedger: boolean; buyerId: string }>(
    await check(jws),
  );
  assert.equal(ok.valid, true);
  assert.equal(ok.matchesLedger, true);
  assert.equal(ok.buyerId, buyerId);

  const [head, body, sig] = jws.split(".");
  const claims = JSON.parse(decoder.decode(base64url(body)));
  claims.charge.amountUsdMicros += 1;
  for (const forged of [`${head}.${encode(JSON.stringify(claims))}.${sig}`, "not.a.jws", ""]) {
    const res = await check(forged);
    const err = await json<{ error: { code: string; param: string } }>(res);
    assert.equal(res.status, 400, forged);
    assert.equal(err.error.param, "receipt");
  }
  const n = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(n.rows[0].n), 1, "checking changes nothing");
});

Deno.test("passages: each charged article's rag read answers its receipt on REST and MCP", async () => {
  await using folio = await startTestFolio();
  const { apiKey } = await signup(folio, "rag");
  const auth = { authorization: `Bearer ${apiKey}` };
  // Every article priced, so whichever passages rank first are charged rag reads.
  const ids = await folio.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo'",
  );
  for (const { id } of ids.rows) {
    await setArticlePolicy(folio.store.db, "pub_demo", String(id), {
      policy: "PAYWALL",
      priceMicros: 20_000,
      now: folio.clock.now(),
    });
  }
  const res = await folio.request(
    "/api/v1/passages/search?q=energy&limit=5&last_user_prompt=q",
    { host: HOST, headers: { ...auth, "idempotency-key": "rag-1" } },
  );
  assert.equal(res.status, 200);
  // deno-lint-ignore no-explicit-any
  const body: any = await res.json();
  assert.ok(body.charges?.length > 0, "PAYWALL articles among the passages were charged");
  const header = res.headers.get("folio-receipt")!.split(", ");
  assert.deepEqual(header, body.charges.map((c: { receipt: string }) => c.receipt));
  const keys = await jwks(folio);
  for (const c of body.charges) {
    const { claims } = await verify(c.receipt, keys);
    assert.equal(claims.charge.use, "rag");
    assert.equal(claims.charge.article.id, c.articleId);
    assert.equal(claims.charge.idempotencyKey, `rag-1#${c.articleId}`);
  }
  const { sessionId } = await initialize(folio, { headers: auth });
  const mcp = await post(folio, {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "retrieve_passages", arguments: { query: "energy", limit: 5 } },
  }, { sessionId, headers: { ...auth, "mcp-protocol-version": "2025-06-18" } });
  const sc = (await mcp.json()).result.structuredContent;
  assert.equal(sc.charges.length, body.charges.length, "the same articles, charged again");
  for (const c of sc.charges) await verify(c.receipt, keys);
});
