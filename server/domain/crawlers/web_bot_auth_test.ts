import assert from "node:assert/strict";
import { signatureHeaders } from "web-bot-auth";
import { Ed25519Signer } from "web-bot-auth/crypto";
import { startTestSigner } from "../../../tests/web_bot_auth_helpers.ts";
import { createFetcher, FetchRefused, type GuardedFetcher } from "../catalog/fetcher.ts";
import { manualClock } from "../../platform/clock.ts";
import { verifyWebBotAuth, type WebBotAuth } from "./web_bot_auth.ts";

const PAGE = "http://publisher.example/articles/1";
const PRICE = { "crawler-exact-price": "USD 0.01" };

function loopbackFetcher(opts: { retries?: number } = {}): GuardedFetcher & { hits: string[] } {
  const fetcher = createFetcher({ userAgent: "FolioBot/test", allowLoopback: true, ...opts });
  const hits: string[] = [];
  return {
    hits,
    open: fetcher.open,
    fetch(url, o) {
      hits.push(url);
      return fetcher.fetch(url, o);
    },
  };
}

/** A fetcher that answers every directory request with `answer()`: no network at all. */
function fakeFetcher(answer: () => { keys: unknown[]; cacheControl?: string } | "down") {
  const hits: string[] = [];
  const fetcher: GuardedFetcher = {
    open: () => Promise.reject(new Error("not in this test")),
    fetch(url) {
      hits.push(url);
      const got = answer();
      if (got === "down") {
        return Promise.reject(new FetchRefused("network", { url, detail: "could not connect" }));
      }
      const text = JSON.stringify({ keys: got.keys });
      const headers = new Headers({ "content-type": "application/json" });
      if (got.cacheControl) headers.set("cache-control", got.cacheControl);
      return Promise.resolve({
        url,
        status: 200,
        contentType: "application/json",
        headers,
        bytes: new TextEncoder().encode(text),
        address: "203.0.113.1",
        text: () => text,
      });
    },
  };
  return { fetcher, hits };
}

/** A fresh Ed25519 key for signing with the library directly, and its public JWK. */
async function newKey() {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return {
    signer: await Ed25519Signer.fromJWK(jwk),
    publicJwk: { kty: "OKP", crv: "Ed25519", x: jwk.x },
  };
}

/** Signs a GET to `url` with the library; the Signature-Agent header value is given as is. */
async function signRaw(
  signer: Ed25519Signer,
  url: string,
  o: { signatureAgent: string; now: Date; headers?: Record<string, string>; components?: string[] },
): Promise<Record<string, string>> {
  const headers = { ...o.headers, "signature-agent": o.signatureAgent };
  const signed = await signatureHeaders({ method: "GET", url, headers }, signer, {
    created: new Date(o.now.getTime() - 1000),
    expires: new Date(o.now.getTime() + 300_000),
    components: o.components ?? ["@authority", "@path", "signature-agent"],
  });
  return { ...headers, "signature-input": signed["Signature-Input"], signature: signed.Signature };
}

function request(headers: Record<string, string>, url = PAGE): Request {
  return new Request(url, { headers });
}

/** What a verified result says of the signer, without the replay details. */
function who(got: WebBotAuth) {
  if (got.kind !== "verified") return got;
  const { agent, keyid, covered } = got;
  return { kind: got.kind, agent, keyid, covered };
}

function assertInvalid(got: WebBotAuth, code: string, why: RegExp) {
  assert.equal(got.kind, "invalid", JSON.stringify(got));
  if (got.kind !== "invalid") return;
  assert.equal(got.code, code);
  assert.match(got.why, why);
}

Deno.test("a valid signature is verified, naming the agent, the key and what it covers", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const fetcher = loopbackFetcher();
  const signed = await signer.sign(PAGE, { headers: PRICE, cover: ["crawler-exact-price"] });
  const got = await verifyWebBotAuth({ fetcher, clock }, request({ ...PRICE, ...signed }));
  assert.deepEqual(who(got), {
    kind: "verified",
    agent: signer.agent,
    keyid: signer.keyid,
    covered: ["@authority", "@path", "signature-agent", "crawler-exact-price"],
  });
  assert.deepEqual(fetcher.hits, [
    `${signer.agent}/.well-known/http-message-signatures-directory`,
  ]);
});

Deno.test("a price header the signature does not cover is left to the caller", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const signed = await signer.sign(PAGE);
  const got = await verifyWebBotAuth(
    { fetcher: loopbackFetcher(), clock },
    request({ ...PRICE, ...signed }),
  );
  assert.equal(got.kind, "verified");
  if (got.kind === "verified") {
    assert.deepEqual(got.covered, ["@authority", "@path", "signature-agent"]);
  }
});

Deno.test("no signature headers: none; only one of the two: invalid", async () => {
  const deps = { fetcher: loopbackFetcher(), clock: manualClock() };
  assert.deepEqual(await verifyWebBotAuth(deps, request({})), { kind: "none" });
  await using signer = await startTestSigner({ now: deps.clock.now });
  const { signature, "signature-input": input, ...rest } = await signer.sign(PAGE);
  assertInvalid(
    await verifyWebBotAuth(deps, request({ ...rest, signature })),
    "InvalidSignature",
    /has a Signature header but no Signature-Input/,
  );
  assertInvalid(
    await verifyWebBotAuth(deps, request({ ...rest, "signature-input": input })),
    "InvalidSignature",
    /has a Signature-Input header but no Signature header/,
  );
  assert.deepEqual(deps.fetcher.hits, []);
});

Deno.test("a signature without Signature-Agent asks for strong authentication", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const { "signature-agent": _, ...signed } = await signer.sign(PAGE);
  assertInvalid(
    await verifyWebBotAuth({ fetcher: loopbackFetcher(), clock }, request(signed)),
    "StrongAuthRequired",
    /Signature-Agent header is required/,
  );
});

Deno.test("expired signatures and signatures from the future are refused by Folio's clock", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: loopbackFetcher(), clock };
  const t = clock.now().getTime();
  const expired = await signer.sign(PAGE, {
    created: new Date(t - 600_000),
    expires: new Date(t - 300_000),
  });
  assertInvalid(
    await verifyWebBotAuth(deps, request(expired)),
    "InvalidSignature",
    /expired at 2026-11-15T11:55:00.000Z/,
  );
  // A valid signature expires as the clock moves on.
  const fresh = await signer.sign(PAGE);
  assert.equal((await verifyWebBotAuth(deps, request(fresh))).kind, "verified");
  clock.advance(301_000);
  assertInvalid(await verifyWebBotAuth(deps, request(fresh)), "InvalidSignature", /expired/);

  const now = clock.now().getTime();
  const future = await signer.sign(PAGE, {
    created: new Date(now + 120_000),
    expires: new Date(now + 300_000),
  });
  assertInvalid(
    await verifyWebBotAuth(deps, request(future)),
    "InvalidSignature",
    /created in the future/,
  );
  // Up to a minute of clock skew is forgiven.
  const skewed = await signer.sign(PAGE, {
    created: new Date(now + 30_000),
    expires: new Date(now + 300_000),
  });
  assert.equal((await verifyWebBotAuth(deps, request(skewed))).kind, "verified");
  const tooLong = await signer.sign(PAGE, { expires: new Date(now + 25 * 3600_000) });
  assertInvalid(
    await verifyWebBotAuth(deps, request(tooLong)),
    "InvalidSignature",
    /longer than 24 hours/,
  );
  // Time is refused before any key directory is asked for.
  assert.equal(deps.fetcher.hits.length, 1);
});

Deno.test("a signature made with another key claiming this keyid is refused", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const { signer: impostor } = await newKey();
  impostor.keyid = signer.keyid;
  const forged = await signRaw(impostor, PAGE, {
    signatureAgent: `"${signer.agent}"`,
    now: clock.now(),
  });
  assertInvalid(
    await verifyWebBotAuth({ fetcher: loopbackFetcher(), clock }, request(forged)),
    "InvalidSignature",
    /does not verify: it was made with another key/,
  );
});

Deno.test("a covered header changed after signing, or another host, is refused", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: loopbackFetcher(), clock };
  const signed = await signer.sign(PAGE, { headers: PRICE, cover: ["crawler-exact-price"] });
  const tampered = { ...signed, "crawler-exact-price": "USD 0.001" };
  assertInvalid(await verifyWebBotAuth(deps, request(tampered)), "InvalidSignature", /not verify/);
  assertInvalid(
    await verifyWebBotAuth(deps, request(signed)),
    "InvalidSignature",
    /covered header crawler-exact-price is not in the request/,
  );
  assertInvalid(
    await verifyWebBotAuth(
      deps,
      request({ ...PRICE, ...signed }, "http://other.example/articles/1"),
    ),
    "InvalidSignature",
    /not verify/,
  );
  // The Host header is the authority when present (behind Deno.serve it always is).
  assert.equal(
    (await verifyWebBotAuth(
      deps,
      request({ ...PRICE, ...signed, host: "PUBLISHER.example:80" }, "http://127.0.0.1/articles/1"),
    )).kind,
    "verified",
  );
});

Deno.test("malformed signature headers are refused with a readable reason", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: loopbackFetcher(), clock };
  const signed = await signer.sign(PAGE);
  const cases: [Record<string, string>, RegExp][] = [
    [{ signature: "sig1=:not base64!:" }, /Signature header is not a structured-field dictionary/],
    [{ signature: "sig2=:AAAA:" }, /no byte sequence labelled sig1/],
    [{ signature: "sig1=:AAAA:" }, /does not verify/],
    [{ "signature-input": "sig1=(" }, /Signature-Input header is not a structured-field/],
    [
      { "signature-input": signed["signature-input"].replace("web-bot-auth", "other") },
      /no signature in Signature-Input is tagged web-bot-auth/,
    ],
    [{ "signature-agent": "https://bot.example" }, /neither a quoted URL nor a dictionary/],
    [{ "signature-agent": '"http://bot.example"' }, /is not an https URL/],
    [{ "signature-agent": '"ftp://bot.example"' }, /is not an https URL/],
  ];
  for (const [change, why] of cases) {
    assertInvalid(
      await verifyWebBotAuth(deps, request({ ...signed, ...change })),
      "InvalidSignature",
      why,
    );
  }
});

Deno.test("@authority and signature-agent must be covered", async () => {
  const clock = manualClock();
  const { signer } = await newKey();
  const deps = { fetcher: fakeFetcher(() => ({ keys: [] })).fetcher, clock };
  const agent = { "signature-agent": '"https://bot.example"' };
  const sign = async (headers: Record<string, string>, components: string[]) => {
    const signed = await signatureHeaders({ method: "GET", url: PAGE, headers }, signer, {
      created: new Date(clock.now().getTime() - 1000),
      expires: new Date(clock.now().getTime() + 300_000),
      components,
    });
    return { signature: signed.Signature, "signature-input": signed["Signature-Input"] };
  };
  const noAuthority = await sign(agent, ["signature-agent", "@path"]);
  assertInvalid(
    await verifyWebBotAuth(deps, request({ ...agent, ...noAuthority })),
    "InvalidSignature",
    /does not cover @authority/,
  );
  // The library will not leave out a Signature-Agent it sees: sign first, add the header after.
  const noAgent = await sign({}, ["@authority", "@path"]);
  assertInvalid(
    await verifyWebBotAuth(deps, request({ ...agent, ...noAgent })),
    "InvalidSignature",
    /does not cover signature-agent/,
  );
});

Deno.test("Signature-Agent in dictionary form picks the member of the signature's label", async () => {
  const clock = manualClock();
  const { signer, publicJwk } = await newKey();
  const { fetcher, hits } = fakeFetcher(() => ({ keys: [publicJwk] }));
  const deps = { fetcher, clock };
  const signed = await signRaw(signer, PAGE, {
    signatureAgent: 'other="https://elsewhere.example", sig1="https://bot.example/agent"',
    now: clock.now(),
  });
  assert.deepEqual(who(await verifyWebBotAuth(deps, request(signed))), {
    kind: "verified",
    agent: "https://bot.example",
    keyid: signer.keyid,
    covered: ["@authority", "@path", "signature-agent"],
  });
  assert.deepEqual(hits, ["https://bot.example/.well-known/http-message-signatures-directory"]);
  // No member of that label: the first one.
  const first = await signRaw(signer, PAGE, {
    signatureAgent: 'agent="https://bot.example"',
    now: clock.now(),
  });
  assert.equal((await verifyWebBotAuth(deps, request(first))).kind, "verified");
});

Deno.test("an unreachable key directory is an invalid signature, remembered for a minute", async () => {
  const clock = manualClock();
  const signer = await startTestSigner({ now: clock.now });
  const signed = await signer.sign(PAGE);
  await signer[Symbol.asyncDispose]();
  const deps = { fetcher: loopbackFetcher({ retries: 0 }), clock };
  assertInvalid(
    await verifyWebBotAuth(deps, request(signed)),
    "InvalidSignature",
    /^key directory could not be fetched: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/http-message-signatures-directory: /,
  );
  await verifyWebBotAuth(deps, request(signed));
  assert.equal(deps.fetcher.hits.length, 1);
  clock.advance(60_000);
  await verifyWebBotAuth(deps, request(signed));
  assert.equal(deps.fetcher.hits.length, 2);
});

Deno.test("key directories are cached per origin and fetched once for concurrent requests", async () => {
  const clock = manualClock();
  await using signer = await startTestSigner({ now: clock.now });
  const deps = { fetcher: loopbackFetcher(), clock };
  const signed = await signer.sign(PAGE);
  const first = await Promise.all([1, 2, 3].map(() => verifyWebBotAuth(deps, request(signed))));
  assert.deepEqual(first.map((r) => r.kind), ["verified", "verified", "verified"]);
  assert.equal(deps.fetcher.hits.length, 1);
  clock.advance(59 * 60_000);
  assert.equal((await verifyWebBotAuth(deps, request(await signer.sign(PAGE)))).kind, "verified");
  assert.equal(deps.fetcher.hits.length, 1);
  clock.advance(60_000); // an hour after the fetch
  assert.equal((await verifyWebBotAuth(deps, request(await signer.sign(PAGE)))).kind, "verified");
  assert.equal(deps.fetcher.hits.length, 2);
});

Deno.test("a smaller Cache-Control max-age is honoured, down to a minute", async () => {
  const clock = manualClock();
  const { signer, publicJwk } = await newKey();
  let cacheControl = "public, max-age=120";
  const { fetcher, hits } = fakeFetcher(() => ({ keys: [publicJwk], cacheControl }));
  const deps = { fetcher, clock };
  const sign = () =>
    signRaw(signer, PAGE, { signatureAgent: '"https://bot.example"', now: clock.now() });
  await verifyWebBotAuth(deps, request(await sign()));
  clock.advance(119_000);
  await verifyWebBotAuth(deps, request(await sign()));
  assert.equal(hits.length, 1);
  cacheControl = "no-store";
  clock.advance(1_000);
  await verifyWebBotAuth(deps, request(await sign()));
  assert.equal(hits.length, 2);
  clock.advance(59_000);
  await verifyWebBotAuth(deps, request(await sign()));
  assert.equal(hits.length, 2);
  clock.advance(1_000);
  await verifyWebBotAuth(deps, request(await sign()));
  assert.equal(hits.length, 3);
});

Deno.test("an unknown keyid refetches the directory (rotation), at most once a minute", async () => {
  const clock = manualClock();
  const old = await newKey();
  const rotated = await newKey();
  let keys: unknown[] = [old.publicJwk];
  let down = false;
  const { fetcher, hits } = fakeFetcher(() => down ? "down" : { keys });
  const deps = { fetcher, clock };
  const sign = (k: typeof old) =>
    signRaw(k.signer, PAGE, { signatureAgent: '"https://bot.example"', now: clock.now() });
  assert.equal((await verifyWebBotAuth(deps, request(await sign(old)))).kind, "verified");
  assert.equal(hits.length, 1);
  // The agent rotates; its new key is not in our copy yet, which is too fresh to refetch.
  keys = [rotated.publicJwk];
  clock.advance(30_000);
  assertInvalid(
    await verifyWebBotAuth(deps, request(await sign(rotated))),
    "InvalidSignature",
    new RegExp(`no Ed25519 key with keyid ${rotated.signer.keyid} in https://bot.example's`),
  );
  assert.equal(hits.length, 1);
  // A minute after the fetch, an unknown keyid refetches once.
  clock.advance(30_000);
  assert.equal((await verifyWebBotAuth(deps, request(await sign(rotated)))).kind, "verified");
  assert.equal(hits.length, 2);
  // Keyids that are in no directory do not make every request a fetch.
  const stranger = await newKey();
  // Eight tries ten seconds apart: one refetch, a minute after the last.
  for (let i = 0; i < 8; i++) {
    assert.equal((await verifyWebBotAuth(deps, request(await sign(stranger)))).kind, "invalid");
    clock.advance(10_000);
  }
  assert.equal(hits.length, 3);
  // A failed refetch keeps the keys that still work.
  down = true;
  clock.advance(60_000);
  assert.equal((await verifyWebBotAuth(deps, request(await sign(stranger)))).kind, "invalid");
  assert.equal(hits.length, 4);
  assert.equal((await verifyWebBotAuth(deps, request(await sign(rotated)))).kind, "verified");
  assert.equal(hits.length, 4);
});

Deno.test("only Ed25519 keys of the directory are used", async () => {
  const clock = manualClock();
  const { signer, publicJwk } = await newKey();
  const { fetcher } = fakeFetcher(() => ({
    keys: [
      { kty: "RSA", n: "x", e: "AQAB" },
      { kty: "OKP", crv: "X25519", x: publicJwk.x },
      { kty: "OKP", crv: "Ed25519", x: "short" },
      null,
      publicJwk,
    ],
  }));
  const signed = await signRaw(signer, PAGE, {
    signatureAgent: '"https://bot.example"',
    now: clock.now(),
  });
  assert.equal((await verifyWebBotAuth({ fetcher, clock }, request(signed))).kind, "verified");
});
