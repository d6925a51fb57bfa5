/**
 * A signature is bound to its request (issue 28): the deployed component sets (no path) verify
 * (issue 40), one that covers the path does not verify on another path, and the `"signature-agent";key="sig1"` form of RFC 9421 section 2.1.2 signs one
 * dictionary member. The replay cache itself is tested in signature_replay_test.ts.
 */
import assert from "node:assert/strict";
import { signatureHeaders } from "web-bot-auth";
import { Ed25519Signer } from "web-bot-auth/crypto";
import { startTestSigner } from "../../../tests/web_bot_auth_helpers.ts";
import { createFetcher, type GuardedFetcher } from "../catalog/fetcher.ts";
import { manualClock } from "../../platform/clock.ts";
import { verifyWebBotAuth, type WebBotAuth } from "./web_bot_auth.ts";

const PAGE = "http://publisher.example/articles/1";
const AGENT = "https://agent.example";

function assertInvalid(got: WebBotAuth, why: RegExp) {
  assert.equal(got.kind, "invalid", JSON.stringify(got));
  if (got.kind === "invalid") {
    assert.equal(got.code, "InvalidSignature");
    assert.match(got.why, why);
  }
}

/** A key whose directory every origin serves (no network), and its signer. */
async function keyEverywhere() {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const text = JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: jwk.x }] });
  const hits: string[] = [];
  const fetcher: GuardedFetcher = {
    open: () => Promise.reject(new Error("not in this test")),
    fetch(url) {
      hits.push(url);
      return Promise.resolve({
        url,
        status: 200,
        contentType: "application/json",
        headers: new Headers({ "content-type": "application/json" }),
        bytes: new TextEncoder().encode(text),
        address: "203.0.113.1",
        text: () => text,
      });
    },
  };
  return { signer: await Ed25519Signer.fromJWK(jwk), fetcher, hits };
}

/**
 * Signs a GET of PAGE covering `"signature-agent";key="sig1"` the way RFC 9421 section 2.1.2 says,
 * written out here rather than by the library (which signs the whole field, see below).
 */
async function signMember(signer: Ed25519Signer, now: Date, nonce = "n-1") {
  const created = Math.floor(now.getTime() / 1000) - 1;
  const params = `;created=${created};expires=${created + 300};keyid="${signer.keyid}"` +
    `;alg="ed25519";nonce="${nonce}";tag="web-bot-auth"`;
  const input = `("@authority" "@path" "signature-agent";key="sig1")${params}`;
  const base = [
    `"@authority": publisher.example`,
    `"@path": /articles/1`,
    `"signature-agent";key="sig1": "${AGENT}"`,
    `"@signature-params": ${input}`,
  ].join("\n");
  const bytes = await signer.sign(base);
  return {
    "signature-agent": `sig1="${AGENT}"`,
    "signature-input": `sig1=${input}`,
    signature: `sig1=:${btoa(String.fromCharCode(...bytes))}:`,
  };
}

Deno.test("the deployed component sets verify without a path (issue 40)", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: createFetcher({ userAgent: "t", allowLoopback: true }), clock };
  // web-bot-auth's defaults: @authority and signature-agent, a fresh nonce.
  const defaults = await signer.sign(PAGE, { defaults: true });
  assert.match(defaults["signature-input"], /^sig1=\("@authority" "signature-agent"\);/);
  const got = await verifyWebBotAuth(deps, new Request(PAGE, { headers: defaults }));
  assert.equal(got.kind, "verified", JSON.stringify(got));
  if (got.kind === "verified") assert.deepEqual(got.covered, ["@authority", "signature-agent"]);
  // Cloudflare's documented set: the same plus the price header.
  const price = { "crawler-exact-price": "USD 0.01" };
  const priced = await signer.sign(PAGE, {
    path: false,
    headers: price,
    cover: ["crawler-exact-price"],
  });
  const paid = await verifyWebBotAuth(
    deps,
    new Request(PAGE, { headers: { ...price, ...priced } }),
  );
  assert.equal(paid.kind, "verified", JSON.stringify(paid));
  for (const pin of ["@target-uri", "@request-target"]) {
    const signed = await signer.sign(PAGE, { path: false, cover: [pin] });
    const one = await verifyWebBotAuth(deps, new Request(PAGE, { headers: signed }));
    assert.equal(one.kind, "verified", `${pin}: ${JSON.stringify(one)}`);
  }
  // @authority and signature-agent stay required.
  const noAgent = await signer.sign(PAGE, { path: false });
  const noAuthority = noAgent["signature-input"].replace('"@authority" ', "");
  assertInvalid(
    await verifyWebBotAuth(
      deps,
      new Request(PAGE, { headers: { ...noAgent, "signature-input": noAuthority } }),
    ),
    /does not cover @authority/,
  );
});

Deno.test("a signature moved to another path of the host does not verify", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: createFetcher({ userAgent: "t", allowLoopback: true }), clock };
  const signed = await signer.sign(PAGE);
  assert.equal(
    (await verifyWebBotAuth(deps, new Request(PAGE, { headers: signed }))).kind,
    "verified",
  );
  for (const other of ["http://publisher.example/articles/2", `${PAGE}/`]) {
    assertInvalid(
      await verifyWebBotAuth(deps, new Request(other, { headers: signed })),
      /does not verify/,
    );
  }
  const uri = await signer.sign(PAGE, { path: false, cover: ["@target-uri"] });
  assertInvalid(
    await verifyWebBotAuth(deps, new Request(`${PAGE}?page=2`, { headers: uri })),
    /does not verify/,
  );
});

Deno.test('"signature-agent";key="sig1" signs the dictionary member (RFC 9421 section 2.1.2)', async () => {
  const clock = manualClock();
  const { signer, fetcher, hits } = await keyEverywhere();
  const deps = { fetcher, clock };
  const signed = await signMember(signer, clock.now());
  const got = await verifyWebBotAuth(deps, new Request(PAGE, { headers: signed }));
  assert.equal(got.kind, "verified", JSON.stringify(got));
  if (got.kind === "verified") {
    assert.equal(got.agent, AGENT);
    assert.deepEqual(got.covered, ["@authority", "@path", "signature-agent"]);
    assert.equal(got.nonce, "n-1");
  }
  assert.deepEqual(hits, [`${AGENT}/.well-known/http-message-signatures-directory`]);
  // Only the member is covered: another member may be added beside it.
  const more = { ...signed, "signature-agent": `other="https://x.example", sig1="${AGENT}"` };
  assert.equal(
    (await verifyWebBotAuth(deps, new Request(PAGE, { headers: more }))).kind,
    "verified",
  );
});

Deno.test("a tampered or missing signature-agent member is refused", async () => {
  const clock = manualClock();
  const { signer, fetcher } = await keyEverywhere();
  const deps = { fetcher, clock };
  const signed = await signMember(signer, clock.now());
  const cases: [string, RegExp][] = [
    // Another agent: the key is found (every origin serves it here) but the member differs.
    [`sig1="https://evil.example"`, /does not verify/],
    [`sig1="${AGENT}/other"`, /does not verify/],
    [`sig2="${AGENT}"`, /covered header signature-agent has no member sig1/],
    [`"${AGENT}"`, /covered header signature-agent is not a structured-field dictionary/],
    [`sig1=("${AGENT}")`, /neither a quoted URL nor a dictionary/],
  ];
  for (const [agent, why] of cases) {
    const headers = { ...signed, "signature-agent": agent };
    assertInvalid(await verifyWebBotAuth(deps, new Request(PAGE, { headers })), why);
  }
  // Other parameters than key, and key on a derived component, are refused.
  for (const component of ['"signature-agent";sf', '"@path";key="a"']) {
    const headers = {
      ...signed,
      "signature-input": signed["signature-input"].replace(
        '"signature-agent";key="sig1"',
        component,
      ),
    };
    assertInvalid(
      await verifyWebBotAuth(deps, new Request(PAGE, { headers })),
      /has parameters .*only key on a header field is supported/,
    );
  }
});

Deno.test("the key form as web-bot-auth 0.1.3 signs it (the whole field) verifies too", async () => {
  const clock = manualClock();
  const { signer, fetcher } = await keyEverywhere();
  const headers = { "signature-agent": `sig1="${AGENT}"` };
  const now = clock.now();
  const signed = await signatureHeaders({ method: "GET", url: PAGE, headers }, signer, {
    created: new Date(now.getTime() - 1000),
    expires: new Date(now.getTime() + 300_000),
    components: [
      "@authority",
      "@path",
      { name: "signature-agent", parameters: new Map([["key", "sig1"]]) },
    ],
  });
  assert.match(signed["Signature-Input"], /"signature-agent";key="sig1"/);
  const request = (agent: string) =>
    new Request(PAGE, {
      headers: {
        "signature-agent": agent,
        "signature-input": signed["Signature-Input"],
        signature: signed.Signature,
      },
    });
  const deps = { fetcher, clock };
  assert.equal(
    (await verifyWebBotAuth(deps, request(headers["signature-agent"]))).kind,
    "verified",
  );
  // That form covers the whole field: any change to it is refused.
  assertInvalid(
    await verifyWebBotAuth(deps, request(`sig1="${AGENT}", other="https://x.example"`)),
    /does not verify/,
  );
});

Deno.test("the replay key is the keyid and nonce, else the signature itself", async () => {
  const clock = manualClock();
  const { signer, fetcher } = await keyEverywhere();
  const deps = { fetcher, clock };
  const verified = async (headers: Record<string, string>, url = PAGE) => {
    const got = await verifyWebBotAuth(deps, new Request(url, { headers }));
    assert.equal(got.kind, "verified", JSON.stringify(got));
    return got as Extract<WebBotAuth, { kind: "verified" }>;
  };
  const a = await verified(await signMember(signer, clock.now(), "same"));
  clock.advance(1000);
  const b = await verified(await signMember(signer, clock.now(), "same"));
  const c = await verified(await signMember(signer, clock.now(), "other"));
  assert.equal(a.replayKey, b.replayKey, "one nonce, one use, whatever else was signed");
  assert.notEqual(a.replayKey, c.replayKey);
  assert.match(a.replayKey, /^[0-9a-f]{64}$/);
  assert.equal(a.expires.getTime(), (Math.floor(clock.now().getTime() / 1000) - 2 + 300) * 1000);

  // No nonce: the signature bytes (Ed25519 is deterministic, so a new signature means new bytes).
  const input = (created: number) =>
    `sig1=("@authority" "@path" "signature-agent");created=${created};expires=${created + 300}` +
    `;keyid="${signer.keyid}";tag="web-bot-auth"`;
  const bare = async (created: number) => {
    const line = input(created).slice("sig1=".length);
    const base = `"@authority": publisher.example\n"@path": /articles/1\n` +
      `"signature-agent": "${AGENT}"\n"@signature-params": ${line}`;
    const bytes = await signer.sign(base);
    return {
      "signature-agent": `"${AGENT}"`,
      "signature-input": input(created),
      signature: `sig1=:${btoa(String.fromCharCode(...bytes))}:`,
    };
  };
  const t = Math.floor(clock.now().getTime() / 1000) - 5;
  const first = await verified(await bare(t));
  assert.equal(first.nonce, null);
  assert.equal((await verified(await bare(t))).replayKey, first.replayKey);
  assert.notEqual((await verified(await bare(t + 1))).replayKey, first.replayKey);
});
