/** docs/TEST-PLAN.md section 1, cases 1-12: the authorization endpoint. */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import {
  accessWorks,
  addPublisherB,
  authorizeRaw,
  authParams,
  fullFlow,
  randomPkce,
  REDIRECT,
  registerClient,
  resourceOf,
} from "./oauth_helpers.ts";
import type { TestFolio } from "./helpers.ts";

/** Asserts an error page: 400 HTML, no Location header. */
async function assertErrorPage(res: Response, error: string): Promise<void> {
  const html = await res.text();
  assert.equal(res.status, 400, html);
  assert.equal(res.headers.get("location"), null);
  assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  assert.ok(html.includes(error), `page names ${error}`);
}

/** Asserts a redirect to REDIRECT carrying `error`, the state and iss; returns its params. */
async function assertErrorRedirect(
  folio: TestFolio,
  res: Response,
  error: string,
): Promise<URLSearchParams> {
  await res.body?.cancel();
  assert.equal(res.status, 302);
  const loc = new URL(res.headers.get("location")!);
  assert.equal(`${loc.origin}${loc.pathname}`, REDIRECT);
  assert.equal(loc.searchParams.get("error"), error, loc.href);
  assert.equal(loc.searchParams.get("iss"), folio.config.baseUrl);
  assert.equal(loc.searchParams.get("code"), null);
  return loc.searchParams;
}

Deno.test("oauth 1.1: a valid S256 flow yields tokens that work for that publisher only", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const { access, refresh } = await fullFlow(folio);
  assert.match(access, /^fat_[0-9A-Za-z]{38}$/);
  assert.match(refresh, /^frt_[0-9A-Za-z]{38}$/);
  assert.equal(await accessWorks(folio, access, "pub_demo"), true);
  assert.equal(await accessWorks(folio, access, "pub_b"), false);
});

Deno.test("oauth 1.2: a redirect_uri with a trailing slash added or removed gets the error page", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio, {
    redirect_uris: ["https://client.example/cb", "https://client.example/x/"],
  });
  const { challenge } = await randomPkce();
  for (const uri of ["https://client.example/cb/", "https://client.example/x"]) {
    await assertErrorPage(
      await authorizeRaw(folio, authParams(folio, id, challenge, { redirect_uri: uri })),
      "invalid_request",
    );
  }
});

/** About 30 bypass patterns of redirect_uri matching (docs/TEST-PLAN.md 1.3 and its fuzz figure). */
export const REDIRECT_MUTATIONS = [
  "https://client.example/cb?x=1",
  "https://client.example/CB",
  "https://CLIENT.example/cb",
  "https://client.example.evil.com/cb",
  "https://client.example@evil.com/cb",
  "https://evil.com/cb#@client.example",
  "https://client.example/cb#frag",
  "//evil.com",
  "//client.example/cb",
  "https://client.example/cb/../evil",
  "https://client.example/cb/./",
  "https://client.example/%63b",
  "https://client.example/cb%2F..%2Fevil",
  "https://client%2eexample/cb",
  "https://client.example%2F@evil.com/cb",
  "http://client.example/cb",
  "https://client.example:443/cb",
  "https://client.example:8443/cb",
  "https://client.example/cb?",
  "https://client.example/cb ",
  " https://client.example/cb",
  "https://client.example\\@evil.com/cb",
  "https://client.example/cb\u0000",
  "https://client.example./cb",
  "javascript:alert(1)//https://client.example/cb",
  "data:text/html,https://client.example/cb",
  "https://evil.com/https://client.example/cb",
  "https://evil.com?https://client.example/cb",
  "https://client.example/cbx",
  "https://client.examplf/cb",
  "https://xn--client-example/cb",
  "/cb",
];

Deno.test("oauth 1.3: mutated redirect URIs get the error page and never a redirect", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  let redirects = 0;
  for (const uri of REDIRECT_MUTATIONS) {
    const res = await authorizeRaw(folio, authParams(folio, id, challenge, { redirect_uri: uri }));
    if (res.headers.get("location")) redirects++;
    await assertErrorPage(res, "invalid_request");
  }
  assert.equal(redirects, 0);
  console.log(`redirect-URI fuzz: ${REDIRECT_MUTATIONS.length} mutations, ${redirects} redirects`);
});

Deno.test("oauth 1.4: an unknown client_id gets the error page even with a plausible redirect_uri", async () => {
  await using folio = await testFolio();
  const { challenge } = await randomPkce();
  for (const id of ["oc_unknownunknown00", "buyer:nobody", "<script>", ""]) {
    await assertErrorPage(
      await authorizeRaw(folio, authParams(folio, id, challenge)),
      id ? "invalid_client" : "invalid_request",
    );
  }
});

Deno.test("oauth 1.5: omitting redirect_uri with two registered gets invalid_request on the page", async () => {
  await using folio = await testFolio();
  const two = await registerClient(folio, {
    redirect_uris: [REDIRECT, "https://client.example/other"],
  });
  const one = await registerClient(folio);
  const { challenge } = await randomPkce();
  const params = authParams(folio, two, challenge);
  delete params.redirect_uri;
  await assertErrorPage(await authorizeRaw(folio, params), "invalid_request");
  // With exactly one registered, the registered URI is used (OAuth 2.1 §4.1.1).
  const single = authParams(folio, one, challenge);
  delete single.redirect_uri;
  const res = await authorizeRaw(folio, single);
  await res.body?.cancel();
  assert.equal(res.status, 302);
  assert.ok(res.headers.get("location")!.startsWith(`${REDIRECT}?code=`));
});

Deno.test("oauth 1.6: loopback redirect URIs may change port only; look-alike hosts are refused", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio, { redirect_uris: ["http://127.0.0.1:1234/cb"] });
  const { challenge } = await randomPkce();
  const ok = await authorizeRaw(
    folio,
    authParams(folio, id, challenge, { redirect_uri: "http://127.0.0.1:5555/cb" }),
  );
  await ok.body?.cancel();
  assert.equal(ok.status, 302);
  assert.ok(ok.headers.get("location")!.startsWith("http://127.0.0.1:5555/cb?code="));
  for (
    const uri of [
      "http://localhost.evil.com:5555/cb",
      "http://127.0.0.1:5555/cb2",
      "http://127.0.0.1.evil.com:1234/cb",
      "http://localhost:1234/cb",
      "https://127.0.0.1:1234/cb",
      "http://127.0.0.1:5555/cb?x=1",
    ]
  ) {
    await assertErrorPage(
      await authorizeRaw(folio, authParams(folio, id, challenge, { redirect_uri: uri })),
      "invalid_request",
    );
  }
});

Deno.test("oauth 1.7: no code_challenge is refused with invalid_request, state and iss", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const params = authParams(folio, id, "x");
  delete params.code_challenge;
  const q = await assertErrorRedirect(folio, await authorizeRaw(folio, params), "invalid_request");
  assert.equal(q.get("state"), "st-123");
});

Deno.test("oauth 1.8: plain, unknown and missing code_challenge_method are refused", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  for (const method of ["plain", "S512", "s256", ""]) {
    const res = await authorizeRaw(
      folio,
      authParams(folio, id, challenge, { code_challenge_method: method }),
    );
    await assertErrorRedirect(folio, res, "invalid_request");
  }
});

Deno.test("oauth 1.9: code_challenge of 42 or 129 characters or with bad characters is refused", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  for (
    const bad of [
      challenge.slice(0, 42),
      "a".repeat(129),
      `${challenge.slice(0, 42)}+`,
      `${challenge.slice(0, 42)}=`,
    ]
  ) {
    const res = await authorizeRaw(
      folio,
      authParams(folio, id, challenge, { code_challenge: bad }),
    );
    await assertErrorRedirect(folio, res, "invalid_request");
  }
});

Deno.test("oauth 1.10: implicit and hybrid response types get unsupported_response_type", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  for (const type of ["token", "code id_token", "id_token"]) {
    const res = await authorizeRaw(
      folio,
      authParams(folio, id, challenge, { response_type: type }),
    );
    await assertErrorRedirect(folio, res, "unsupported_response_type");
  }
});

Deno.test("oauth 1.11: success and error responses carry iss and echo state byte for byte", async () => {
  await using folio = await testFolio();
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  const state = "a b+c/d=é&x=%41<>\"'";
  const ok = await authorizeRaw(folio, authParams(folio, id, challenge, { state }));
  await ok.body?.cancel();
  const okQ = new URL(ok.headers.get("location")!).searchParams;
  assert.equal(okQ.get("state"), state);
  assert.equal(okQ.get("iss"), folio.config.baseUrl);
  const bad = await authorizeRaw(
    folio,
    authParams(folio, id, challenge, { state, response_type: "token" }),
  );
  const badQ = await assertErrorRedirect(folio, bad, "unsupported_response_type");
  assert.equal(badQ.get("state"), state);
});

Deno.test("oauth 1.12: a relative, fragment, foreign, missing or repeated resource gets invalid_target", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  const a = resourceOf(folio);
  const cases: (string | string[])[] = [
    "/api/mcp/pub_demo",
    `${a}#frag`,
    `${a}/`,
    `${a}?x=1`,
    "https://evil.example/api/mcp/pub_demo",
    resourceOf(folio, "pub_nobody"),
    `${folio.config.baseUrl}/api/rest/pub_demo`,
    [a, resourceOf(folio, "pub_b")],
    [],
  ];
  for (const resource of cases) {
    const params = authParams(folio, id, challenge, { resource });
    const res = await authorizeRaw(folio, params);
    await assertErrorRedirect(folio, res, "invalid_target");
  }
});
