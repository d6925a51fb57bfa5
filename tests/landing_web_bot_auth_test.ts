/**
 * Web Bot Auth on the landing path (issue 13): a buyer registers its crawler's key directory with a
 * signed request; the crawler's signed requests then pay as that buyer. Valid, expired, wrong-key
 * and unsigned-price signatures, and an unregistered directory, each answer in the dialect.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { demoPath, GPTBOT, HOST, visit } from "./landing_helpers.ts";
import { startTestSigner, type TestSigner } from "./web_bot_auth_helpers.ts";

const REGISTER = "http://127.0.0.1:8080/api/marketplace/signature-agents";

async function register(folio: TestFolio, signer: TestSigner, apiKey: string, signed = true) {
  return await folio.request("/api/marketplace/signature-agents", {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": "application/json",
      ...(signed ? await signer.sign(REGISTER) : {}),
    },
    body: JSON.stringify({ agent: signer.agent }),
  });
}

Deno.test("Web Bot Auth: a registered crawler pays by signature; bad signatures are refused in the dialect", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  const now = () => folio.clock.now();
  await using signer = await startTestSigner({ now });
  await using stranger = await startTestSigner({ now });
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Signed Crawler Inc",
    email: "signed@example.test",
  }, { now: now() });
  const other = await createBuyer(folio.deps.store.db, {
    name: "Other",
    email: "other@example.test",
  }, { now: now() });

  // Registration needs the directory's own signature, and a directory has one buyer.
  assert.equal((await register(folio, signer, apiKey, false)).status, 403);
  const ok = await register(folio, signer, apiKey);
  assert.equal(ok.status, 201);
  assert.deepEqual((await json<{ agents: { agent: string }[] }>(ok)).agents.map((a) => a.agent), [
    signer.agent,
  ]);
  assert.equal((await register(folio, signer, other.apiKey)).status, 409);

  const paywall = await demoPath(folio, "PAYWALL");
  const url = `http://${HOST}:8080${paywall.path}`;
  const quote = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  const price = quote.headers.get("crawler-price")!;
  await quote.body?.cancel();
  const offer = { "crawler-exact-price": price };
  const signed = (s: TestSigner, o: Parameters<TestSigner["sign"]>[1] = {}) =>
    s.sign(url, { headers: offer, cover: ["crawler-exact-price"], ...o });

  const cases: {
    name: string;
    headers: () => Promise<Record<string, string>>;
    status: number;
    error: string | null;
  }[] = [
    {
      name: "valid signature covering the price: served and charged",
      headers: async () => ({ ...offer, ...await signed(signer) }),
      status: 200,
      error: null,
    },
    {
      name: "price header not covered by the signature",
      headers: async () => ({ ...offer, ...await signer.sign(url) }),
      status: 400,
      error: "InvalidSignature",
    },
    {
      name: "expired signature",
      headers: async () => ({
        ...offer,
        ...await signed(signer, {
          created: new Date(now().getTime() - 3_600_000),
          expires: new Date(now().getTime() - 60_000),
        }),
      }),
      status: 400,
      error: "InvalidSignature",
    },
    {
      name: "signed by a key that is not in the named directory",
      headers: async () => ({
        ...offer,
        ...await signed(stranger),
        "signature-agent": `"${signer.agent}"`,
      }),
      status: 400,
      error: "InvalidSignature",
    },
    {
      name: "a verified directory no buyer registered cannot pay",
      headers: async () => ({ ...offer, ...await signed(stranger) }),
      status: 403,
      error: "PaymentFailed",
    },
    {
      name: "a registered crawler that offers nothing is told the price",
      headers: () => signer.sign(url),
      status: 402,
      error: "MissingCrawlerPrice",
    },
  ];
  for (const c of cases) {
    const res = await visit(folio, paywall.path, { "user-agent": GPTBOT, ...await c.headers() });
    assert.equal(res.status, c.status, `${c.name}: ${await res.text()}`);
    assert.equal(res.headers.get("crawler-error"), c.error, c.name);
    if (c.status === 200) assert.equal(res.headers.get("crawler-charged"), price, c.name);
  }
  const charges = await folio.deps.store.db.execute(
    "SELECT buyer_id, identity FROM charges WHERE kind = 'landing'",
  );
  assert.deepEqual(charges.rows.map((r) => [r.buyer_id, r.identity]), [
    [buyerId, `buyer:${buyerId}`],
  ]);

  // Removing the directory ends the arrangement.
  const removed = await folio.request(
    `/api/marketplace/signature-agents?agent=${encodeURIComponent(signer.agent)}`,
    { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } },
  );
  assert.equal(removed.status, 200);
  const after = await visit(folio, paywall.path, {
    "user-agent": GPTBOT,
    ...offer,
    ...await signed(signer),
  });
  assert.equal(after.status, 403);
  assert.equal(after.headers.get("crawler-error"), "PaymentFailed");
  await after.body?.cancel();
});
