/**
 * The OAuth server as a client sees it: discovery, registration (docs/TEST-PLAN.md 1.32-1.36), CORS (5.16)
 * and the whole flow against the MCP endpoint with plain fetch, exactly as an MCP client runs it.
 */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import type { TestFolio } from "./helpers.ts";
import {
  addPublisherB,
  authParams,
  fullFlow,
  randomPkce,
  REDIRECT,
  registerClient,
  registerRaw,
  resourceOf,
  setToggles,
  token,
} from "./oauth_helpers.ts";
import { initializeRequest } from "./fixtures/demo.ts";

const INIT = initializeRequest("oauth-test");

function mcp(
  folio: TestFolio,
  publisherId: string,
  auth: string | null,
  query = "",
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (auth) headers.authorization = auth;
  return folio.request(`/api/mcp/${publisherId}${query}`, {
    method: "POST",
    headers,
    body: JSON.stringify(INIT),
  });
}

Deno.test("oauth 1.32: authorization server metadata names the issuer, S256, code and iss support", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/.well-known/oauth-authorization-server");
  const m = await res.json();
  assert.equal(res.status, 200);
  assert.equal(m.issuer, folio.config.baseUrl);
  const issuer = new URL(m.issuer);
  assert.equal(issuer.search + issuer.hash, "");
  assert.deepEqual(m.code_challenge_methods_supported, ["S256"]);
  assert.deepEqual(m.response_types_supported, ["code"]);
  assert.deepEqual(m.grant_types_supported, ["authorization_code", "refresh_token"]);
  assert.equal(m.authorization_response_iss_parameter_supported, true);
  assert.equal(m.authorization_endpoint, `${folio.config.baseUrl}/api/oauth/authorize`);
  assert.equal(m.token_endpoint, `${folio.config.baseUrl}/api/oauth/token`);
  assert.equal(m.registration_endpoint, `${folio.config.baseUrl}/api/oauth/register`);
});

Deno.test("oauth 1.32: with an https base URL the issuer is that https origin exactly", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "https://folio.example" } });
  const m = await (await folio.request("/.well-known/oauth-authorization-server")).json();
  assert.equal(m.issuer, "https://folio.example");
});

Deno.test("oauth 1.33: protected resource metadata names the canonical MCP URI byte for byte", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/.well-known/oauth-protected-resource/api/mcp/pub_demo");
  const m = await res.json();
  assert.equal(res.status, 200);
  assert.equal(m.resource, `${folio.config.baseUrl}/api/mcp/pub_demo`);
  assert.deepEqual(m.authorization_servers, [folio.config.baseUrl]);
  assert.deepEqual(m.bearer_methods_supported, ["header"]);
  const missing = await folio.request("/.well-known/oauth-protected-resource/api/mcp/pub_nobody");
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("oauth 1.34: registration refuses bad redirect URIs and metadata, and stores nothing", async () => {
  await using folio = await testFolio();
  const uri = (u: unknown) => ({ redirect_uris: u });
  const cases: [string, unknown, string][] = [
    ["fragment", uri(["https://client.example/cb#x"]), "invalid_redirect_uri"],
    ["empty fragment", uri(["https://client.example/cb#"]), "invalid_redirect_uri"],
    ["javascript:", uri(["javascript:alert(1)"]), "invalid_redirect_uri"],
    ["data:", uri(["data:text/html,hi"]), "invalid_redirect_uri"],
    ["file:", uri(["file:///etc/passwd"]), "invalid_redirect_uri"],
    ["http non-loopback", uri(["http://client.example/cb"]), "invalid_redirect_uri"],
    ["http look-alike loopback", uri(["http://localhost.evil.com/cb"]), "invalid_redirect_uri"],
    ["userinfo", uri(["https://good.com@evil.com/cb"]), "invalid_redirect_uri"],
    ["dot segments", uri(["https://client.example/a/../cb"]), "invalid_redirect_uri"],
    ["relative", uri(["/cb"]), "invalid_redirect_uri"],
    ["empty array", uri([]), "invalid_redirect_uri"],
    ["missing", {}, "invalid_redirect_uri"],
    ["not strings", uri([42]), "invalid_redirect_uri"],
    [
      "too many",
      uri(Array.from({ length: 11 }, (_, i) => `https://client.example/${i}`)),
      "invalid_redirect_uri",
    ],
    [
      "password grant",
      { ...uri([REDIRECT]), grant_types: ["authorization_code", "password"] },
      "invalid_client_metadata",
    ],
    [
      "client_credentials",
      { ...uri([REDIRECT]), grant_types: ["client_credentials"] },
      "invalid_client_metadata",
    ],
    ["implicit", { ...uri([REDIRECT]), grant_types: ["implicit"] }, "invalid_client_metadata"],
    [
      "token response",
      { ...uri([REDIRECT]), response_types: ["token"] },
      "invalid_client_metadata",
    ],
    [
      "secret auth",
      { ...uri([REDIRECT]), token_endpoint_auth_method: "client_secret_basic" },
      "invalid_client_metadata",
    ],
    [
      "jwt auth",
      { ...uri([REDIRECT]), token_endpoint_auth_method: "private_key_jwt" },
      "invalid_client_metadata",
    ],
    ["unknown scope", { ...uri([REDIRECT]), scope: "admin" }, "invalid_client_metadata"],
    ["long name", { ...uri([REDIRECT]), client_name: "x".repeat(201) }, "invalid_client_metadata"],
    ["array body", [REDIRECT], "invalid_client_metadata"],
  ];
  for (const [name, body, error] of cases) {
    const res = await registerRaw(folio, body);
    const json = await res.json();
    assert.equal(res.status, 400, name);
    assert.equal(json.error, error, `${name}: ${JSON.stringify(json)}`);
  }
  const big = await folio.request("/api/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: "x", pad: "y".repeat(70_000) }),
  });
  assert.equal(big.status, 400);
  assert.equal((await big.json()).error, "invalid_client_metadata");
  const form = await folio.request("/api/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `redirect_uris=${encodeURIComponent(REDIRECT)}`,
  });
  assert.equal(form.status, 400);
  assert.equal((await form.json()).error, "invalid_client_metadata");
  const notJson = await folio.request("/api/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{redirect_uris:",
  });
  assert.equal((await notJson.json()).error, "invalid_client_metadata");
  const n = await folio.deps.store.db.execute(
    "SELECT COUNT(*) AS n FROM oauth_clients WHERE kind = 'dynamic'",
  );
  assert.equal(Number(n.rows[0].n), 0);
  console.log(`registration: ${cases.length + 3} bad registrations tried, 0 accepted`);
});

Deno.test("oauth 1.34: registration accepts https, loopback and private-use redirect URIs", async () => {
  await using folio = await testFolio();
  const res = await registerRaw(folio, {
    redirect_uris: [
      REDIRECT,
      "http://127.0.0.1:3000/cb",
      "http://localhost/cb",
      "http://[::1]:1/cb",
      "cursor://anysphere.cursor-retrieval/oauth/callback",
    ],
    client_name: "<img src=x onerror=alert(1)>",
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.match(body.client_id, /^oc_[0-9a-z]{16}$/);
  assert.equal(body.token_endpoint_auth_method, "none");
  assert.equal(body.client_secret, undefined);
  assert.deepEqual(body.grant_types, ["authorization_code", "refresh_token"]);
  assert.equal(res.headers.get("cache-control"), "no-store");
});

Deno.test("oauth 1.35: more than 20 registrations a minute from one address get 429 with Retry-After", async () => {
  await using folio = await testFolio();
  for (let i = 0; i < 20; i++) await registerClient(folio);
  const limited = await registerRaw(folio, { redirect_uris: [REDIRECT] });
  assert.equal(limited.status, 429);
  assert.match(limited.headers.get("retry-after") ?? "", /^\d+$/);
  assert.equal((await limited.json()).error, "too_many_requests");
  folio.clock.advance(Number(limited.headers.get("retry-after")) * 1000);
  assert.match(await registerClient(folio), /^oc_/);
});

Deno.test("oauth 1.36: an access token in the query string is refused on MCP and REST", async () => {
  await using folio = await testFolio();
  const { access } = await fullFlow(folio);
  const res = await mcp(folio, "pub_demo", null, `?access_token=${access}`);
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const rest = await folio.request(`/api/v1/articles/search?q=news&access_token=${access}`, {
    host: "demo.localhost",
  });
  assert.notEqual(rest.status, 200);
  await rest.body?.cancel();
});

Deno.test("oauth decision: MCP access tokens do not work on the REST API", async () => {
  await using folio = await testFolio();
  const { access } = await fullFlow(folio);
  const rest = await folio.request("/api/v1/articles/search?q=news", {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${access}` },
  });
  assert.equal(rest.status, 401);
  await rest.body?.cancel();
});

Deno.test("oauth 5.16: token, register and metadata allow CORS without credentials; authorize does not", async () => {
  await using folio = await testFolio();
  const origin = { origin: "https://x.test" };
  for (
    const path of [
      "/api/oauth/token",
      "/api/oauth/register",
      "/.well-known/oauth-authorization-server",
    ]
  ) {
    const pre = await folio.request(path, {
      method: "OPTIONS",
      headers: {
        ...origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    await pre.body?.cancel();
    assert.equal(pre.headers.get("access-control-allow-origin"), "*", path);
    assert.equal(pre.headers.get("access-control-allow-credentials"), null, path);
  }
  const tokenError = await folio.request("/api/oauth/token", {
    method: "POST",
    headers: { ...origin, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=password",
  });
  await tokenError.body?.cancel();
  assert.equal(tokenError.headers.get("access-control-allow-origin"), "*");
  assert.equal(tokenError.headers.get("access-control-allow-credentials"), null);
  const id = await registerClient(folio);
  const { challenge } = await randomPkce();
  await setToggles(folio, "pub_demo", { consentScreen: true });
  for (const params of [authParams(folio, id, challenge), { client_id: "nope" }]) {
    const q = new URLSearchParams(params as Record<string, string>);
    const res = await folio.request(`/api/oauth/authorize?${q}`, {
      headers: origin,
      redirect: "manual",
    });
    await res.body?.cancel();
    assert.equal(res.headers.get("access-control-allow-origin"), null);
    assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
  }
});

Deno.test("oauth end to end: a client discovers, registers, authorizes, calls MCP and refreshes with plain fetch", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  await setToggles(folio, "pub_demo", { requireAuth: true });
  // 1. The MCP server challenges with the RFC 9728 metadata URL.
  const challenge401 = await mcp(folio, "pub_demo", null);
  assert.equal(challenge401.status, 401);
  await challenge401.body?.cancel();
  const www = challenge401.headers.get("www-authenticate") ?? "";
  const prmUrl = new URL(/resource_metadata="([^"]+)"/.exec(www)![1]);
  // 2. Protected resource metadata, then authorization server metadata.
  const prm = await (await folio.request(prmUrl.pathname)).json();
  const asUrl = new URL(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`);
  const as = await (await folio.request(asUrl.pathname)).json();
  // 3. Dynamic registration.
  const reg = await (await folio.request(new URL(as.registration_endpoint).pathname, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: ["http://127.0.0.1:33418/callback"],
      client_name: "E2E",
    }),
  })).json();
  // 4. Authorization with PKCE S256 and the resource indicator.
  const { verifier, challenge } = await randomPkce();
  const state = crypto.randomUUID();
  const authUrl = new URL(as.authorization_endpoint);
  for (
    const [k, v] of Object.entries({
      response_type: "code",
      client_id: reg.client_id,
      redirect_uri: "http://127.0.0.1:33418/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      resource: prm.resource,
    })
  ) authUrl.searchParams.set(k, v);
  const auth = await folio.request(`${authUrl.pathname}${authUrl.search}`, { redirect: "manual" });
  await auth.body?.cancel();
  const cb = new URL(auth.headers.get("location")!);
  assert.equal(cb.searchParams.get("state"), state);
  assert.equal(cb.searchParams.get("iss"), as.issuer);
  // 5. Token exchange.
  const tokens = await token(folio, {
    grant_type: "authorization_code",
    code: cb.searchParams.get("code")!,
    code_verifier: verifier,
    client_id: reg.client_id,
    redirect_uri: "http://127.0.0.1:33418/callback",
    resource: prm.resource,
  });
  assert.equal(tokens.status, 200);
  // 6. The MCP call works at publisher A and is refused at publisher B (RFC 8707).
  const ok = await mcp(folio, "pub_demo", `Bearer ${tokens.body.access_token}`);
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const other = await mcp(folio, "pub_b", `Bearer ${tokens.body.access_token}`);
  assert.equal(other.status, 401);
  await other.body?.cancel();
  // 7. After an hour the access token is dead; a refresh brings a working one.
  folio.clock.advance(3600_000);
  const expired = await mcp(folio, "pub_demo", `Bearer ${tokens.body.access_token}`);
  assert.equal(expired.status, 401);
  await expired.body?.cancel();
  const refreshed = await token(folio, {
    grant_type: "refresh_token",
    refresh_token: String(tokens.body.refresh_token),
    client_id: reg.client_id,
  });
  const again = await mcp(folio, "pub_demo", `Bearer ${refreshed.body.access_token}`);
  assert.equal(again.status, 200);
  await again.body?.cancel();
});

Deno.test("oauth 1.1: a token for publisher A is refused by publisher B's MCP endpoint", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const a = await fullFlow(folio);
  const b = await fullFlow(folio, { publisherId: "pub_b" });
  assert.equal(resourceOf(folio, "pub_b").endsWith("/api/mcp/pub_b"), true);
  for (
    const [pub, tok, want] of [["pub_demo", a.access, 200], ["pub_b", a.access, 401], [
      "pub_demo",
      b.access,
      401,
    ], ["pub_b", b.access, 200]] as const
  ) {
    const res = await mcp(folio, pub, `Bearer ${tok}`);
    assert.equal(res.status, want, `${pub}`);
    await res.body?.cancel();
  }
});
