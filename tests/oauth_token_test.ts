/** docs/TEST-PLAN.md section 1, cases 16-24: the token endpoint's code grant. */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import type { TestFolio } from "./helpers.ts";
import {
  accessWorks,
  addPublisherB,
  authorizeCode,
  randomPkce,
  REDIRECT,
  registerClient,
  resourceOf,
  token,
  tokenRaw,
} from "./oauth_helpers.ts";

async function codeFor(folio: TestFolio) {
  const clientId = await registerClient(folio);
  const { verifier, challenge } = await randomPkce();
  const code = await authorizeCode(folio, clientId, challenge);
  const form = {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
  };
  return { clientId, verifier, code, form };
}

function assertInvalid(
  res: { status: number; body: Record<string, unknown>; headers: Headers },
  error = "invalid_grant",
) {
  assert.equal(res.status, error === "invalid_client" ? 401 : 400, JSON.stringify(res.body));
  assert.equal(res.body.error, error);
  assert.equal(typeof res.body.error_description, "string");
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
}

Deno.test("oauth 1.16: a replayed code fails and revokes what its first redemption issued", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  const first = await token(folio, form);
  assert.equal(first.status, 200);
  assertInvalid(await token(folio, form));
  assert.equal(await accessWorks(folio, String(first.body.access_token)), false);
  assertInvalid(
    await token(folio, {
      grant_type: "refresh_token",
      refresh_token: String(first.body.refresh_token),
      client_id: form.client_id,
    }),
  );
});

Deno.test("oauth 1.16: of K concurrent redemptions exactly one wins and its tokens are revoked", async () => {
  await using folio = await testFolio();
  const runs = 10;
  let revokedRuns = 0;
  for (let r = 0; r < runs; r++) {
    folio.clock.advance(61_000); // stay under the registration rate limit across runs
    const k = 2 + (r % 9); // 2..10 concurrent redemptions
    const { form } = await codeFor(folio);
    const results = await Promise.all(Array.from({ length: k }, () => token(folio, form)));
    const wins = results.filter((x) => x.status === 200);
    assert.equal(wins.length, 1, `run ${r}: ${results.map((x) => x.status)}`);
    for (const lose of results.filter((x) => x.status !== 200)) assertInvalid(lose);
    if (!await accessWorks(folio, String(wins[0].body.access_token))) revokedRuns++;
  }
  assert.equal(revokedRuns, runs);
  console.log(
    `code reuse: 2-10 concurrent redemptions x ${runs} runs: exactly 1 success; winner revoked ${revokedRuns}/${runs}`,
  );
});

Deno.test("oauth 1.17: a code used after its 60 s TTL gets invalid_grant; just before it works", async () => {
  await using folio = await testFolio();
  const late = await codeFor(folio);
  folio.clock.advance(61_000);
  assertInvalid(await token(folio, late.form));
  const onTime = await codeFor(folio);
  folio.clock.advance(59_000);
  assert.equal((await token(folio, onTime.form)).status, 200);
});

Deno.test("oauth 1.18: a code redeemed by another client gets invalid_grant and is burned", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  const other = await registerClient(folio);
  assertInvalid(await token(folio, { ...form, client_id: other }));
  assertInvalid(await token(folio, form));
});

Deno.test("oauth 1.18: an unknown or revoked client at the token endpoint gets invalid_client", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  assertInvalid(
    await token(folio, { ...form, client_id: "oc_nosuchclient0000" }),
    "invalid_client",
  );
  assertInvalid(await token(folio, { ...form, client_id: "buyer:b1" }), "invalid_client");
});

Deno.test("oauth 1.19: a redirect_uri differing from the authorization request gets invalid_grant", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  assertInvalid(await token(folio, { ...form, redirect_uri: `${REDIRECT}/` }));
});

Deno.test("oauth 1.20: a missing code_verifier gets invalid_grant", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  const { code_verifier: _, ...without } = form;
  assertInvalid(await token(folio, without));
});

Deno.test("oauth 1.21: a wrong or short code_verifier gets invalid_grant and burns the code", async () => {
  await using folio = await testFolio();
  const a = await codeFor(folio);
  const { verifier: wrong } = await randomPkce();
  assertInvalid(await token(folio, { ...a.form, code_verifier: wrong }));
  assertInvalid(await token(folio, a.form)); // the right verifier no longer helps
  const b = await codeFor(folio);
  assertInvalid(await token(folio, { ...b.form, code_verifier: b.verifier.slice(0, 42) }));
});

Deno.test("oauth 1.22: a verifier without a stored challenge cannot downgrade PKCE", async () => {
  await using folio = await testFolio();
  const clientId = await registerClient(folio);
  const { verifier } = await randomPkce();
  // No code is ever issued without a challenge, so the verifier has nothing to be checked against.
  const res = await folio.request(
    `/api/oauth/authorize?response_type=code&client_id=${clientId}&redirect_uri=${
      encodeURIComponent(REDIRECT)
    }&resource=${encodeURIComponent(resourceOf(folio))}`,
    { redirect: "manual" },
  );
  await res.body?.cancel();
  const loc = new URL(res.headers.get("location")!);
  assert.equal(loc.searchParams.get("code"), null);
  assert.equal(loc.searchParams.get("error"), "invalid_request");
  assertInvalid(
    await token(folio, {
      grant_type: "authorization_code",
      code: "fac_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      code_verifier: verifier,
      client_id: clientId,
    }),
  );
});

Deno.test("oauth 1.23: a resource at the token endpoint other than the one authorized gets invalid_target", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const { form } = await codeFor(folio);
  assertInvalid(
    await token(folio, { ...form, resource: resourceOf(folio, "pub_b") }),
    "invalid_target",
  );
  const again = await codeFor(folio);
  const ok = await token(folio, { ...again.form, resource: resourceOf(folio) });
  assert.equal(ok.status, 200);
});

Deno.test("oauth 1.24: token responses are no-store, expire in 3600 s and carry 190-bit opaque tokens", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  const res = await token(folio, form);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.body.token_type, "Bearer");
  assert.equal(res.body.expires_in, 3600);
  assert.equal(res.body.scope, "mcp");
  const access = String(res.body.access_token);
  // 32 base62 characters from the CSPRNG: 32 * log2(62) ≈ 190 bits, then a 6-character checksum.
  assert.match(access, /^fat_[0-9A-Za-z]{38}$/);
  assert.equal(access.split(".").length, 1, "not a JWT");
  const stored = await folio.deps.store.db.execute("SELECT token_hash FROM oauth_tokens");
  for (const row of stored.rows) assert.match(String(row.token_hash), /^[0-9a-f]{64}$/);
  assert.ok(!stored.rows.some((r) => String(r.token_hash).includes(access)));
});

Deno.test("oauth token endpoint: wrong media type, repeated parameters and unknown grants are refused", async () => {
  await using folio = await testFolio();
  const { form } = await codeFor(folio);
  const json = await folio.request("/api/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(form),
  });
  assert.equal(json.status, 400);
  assert.equal((await json.json()).error, "invalid_request");
  const repeated = await folio.request("/api/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `${new URLSearchParams(form)}&code=again`,
  });
  assert.equal((await repeated.json()).error, "invalid_request");
  for (const grant of ["password", "client_credentials", "implicit"]) {
    assertInvalid(await token(folio, { ...form, grant_type: grant }), "unsupported_grant_type");
  }
  const still = await tokenRaw(folio, form);
  assert.equal(still.status, 200, "refused requests changed nothing");
  await still.body?.cancel();
});
