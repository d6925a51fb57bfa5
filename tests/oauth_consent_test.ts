/** docs/TEST-PLAN.md section 1, cases 13-15: the branded consent screen, CSRF and framing. */
import assert from "node:assert/strict";
import { verifyAccessToken } from "../server/domain/accounts/tokens.ts";
import { testFolio } from "./helpers.ts";
import type { TestFolio } from "./helpers.ts";
import {
  authorizeRaw,
  authParams,
  randomPkce,
  REDIRECT,
  registerClient,
  resourceOf,
  setToggles,
  token,
} from "./oauth_helpers.ts";

const XSS = "<img src=x onerror=alert(1)>";

async function consentSetup(folio: TestFolio, options: { name?: string } = {}) {
  await setToggles(folio, "pub_demo", { consentScreen: true }, {
    logoUrl: "https://cdn.example/logo.png",
    primaryColor: "#ff0066",
    font: "Georgia",
  });
  const clientId = await registerClient(folio, { client_name: options.name ?? "Reader App" });
  const pkce = await randomPkce();
  return { clientId, ...pkce };
}

/** Opens the consent page and returns its hidden fields and the CSRF cookie. */
async function openConsent(folio: TestFolio, clientId: string, challenge: string) {
  const res = await authorizeRaw(folio, authParams(folio, clientId, challenge));
  const html = await res.text();
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescape(m[1])] = unescape(m[2]);
  }
  return { res, html, cookie, fields };
}

function unescape(s: string): string {
  return s.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">")
    .replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

function submit(
  folio: TestFolio,
  form: Record<string, string>,
  headers: Record<string, string>,
): Promise<Response> {
  return folio.request("/api/oauth/authorize", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

Deno.test("oauth consent: off by default, authorize redirects straight back with a code", async () => {
  await using folio = await testFolio();
  const clientId = await registerClient(folio);
  const { challenge } = await randomPkce();
  const res = await authorizeRaw(folio, authParams(folio, clientId, challenge));
  await res.body?.cancel();
  assert.equal(res.status, 302);
  assert.ok(new URL(res.headers.get("location")!).searchParams.get("code"));
});

Deno.test("oauth 1.13: the consent page is branded, unframeable and sends no referrer to other origins", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { res, html, cookie } = await openConsent(folio, clientId, challenge);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  // same-origin, not no-referrer: under no-referrer Chromium posts the form with "Origin: null",
  // which the same-origin check refuses (tests/page_csp_browser_test.ts posts it in Chromium).
  assert.equal(res.headers.get("referrer-policy"), "same-origin");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(cookie, /^folio_oauth_csrf=[0-9A-Za-z]{32}$/);
  assert.match(res.headers.get("set-cookie")!, /HttpOnly/i);
  assert.match(res.headers.get("set-cookie")!, /SameSite=Strict/i);
  assert.ok(html.includes("https://cdn.example/logo.png"));
  assert.ok(html.includes("#ff0066"));
  assert.ok(html.includes("Georgia"));
  assert.ok(html.includes("Demo"), "names the publisher");
  assert.ok(!html.includes("Link an existing subscription"), "no linking unless configured");
});

Deno.test("oauth 1.13: a consent POST without a valid CSRF token or from another origin gets 403", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const approve: Record<string, string> = {
    ...fields,
    email: "r@example.com",
    accept_terms: "yes",
    decision: "approve",
  };
  const { csrf_token: _, ...noToken } = approve;
  const attempts: [Record<string, string>, Record<string, string>][] = [
    [noToken, { cookie }],
    [approve, {}],
    [{ ...approve, csrf_token: "A".repeat(32) }, { cookie }],
    [approve, { cookie, origin: "https://evil.test" }],
    [approve, { cookie, "sec-fetch-site": "cross-site" }],
  ];
  for (const [form, headers] of attempts) {
    const res = await submit(folio, form, headers);
    await res.body?.cancel();
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("location"), null);
  }
  const codes = await folio.deps.store.db.execute("SELECT COUNT(*) AS n FROM oauth_codes");
  assert.equal(Number(codes.rows[0].n), 0, "no code was issued");
});

Deno.test("oauth 1.13: approving redirects with 303, and the email is attributed to the token", async () => {
  await using folio = await testFolio();
  const { clientId, challenge, verifier } = await consentSetup(folio);
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const res = await submit(
    folio,
    { ...fields, email: "reader@example.com", accept_terms: "yes", decision: "approve" },
    { cookie, origin: new URL(folio.config.baseUrl).origin },
  );
  await res.body?.cancel();
  assert.equal(res.status, 303);
  const loc = new URL(res.headers.get("location")!);
  assert.equal(`${loc.origin}${loc.pathname}`, REDIRECT);
  assert.equal(loc.searchParams.get("state"), "st-123");
  assert.equal(loc.searchParams.get("iss"), folio.config.baseUrl);
  const tokens = await token(folio, {
    grant_type: "authorization_code",
    code: loc.searchParams.get("code")!,
    code_verifier: verifier,
    client_id: clientId,
  });
  const grant = await verifyAccessToken(folio.deps.store.db, String(tokens.body.access_token), {
    resource: resourceOf(folio),
    now: folio.clock.now(),
  });
  assert.equal(grant?.email, "reader@example.com");
  assert.equal(grant?.clientId, clientId);
});

Deno.test("oauth consent: a bad email or unaccepted terms re-show the page; deny redirects access_denied", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  for (
    const form of [
      { ...fields, email: "not-an-email", accept_terms: "yes", decision: "approve" },
      { ...fields, email: "r@example.com", decision: "approve" },
    ]
  ) {
    const res = await submit(folio, form, { cookie });
    const html = await res.text();
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("location"), null);
    assert.match(html, /role="alert"/);
  }
  const deny = await submit(folio, { ...fields, decision: "deny" }, { cookie });
  await deny.body?.cancel();
  assert.equal(deny.status, 303);
  const loc = new URL(deny.headers.get("location")!);
  assert.equal(loc.searchParams.get("error"), "access_denied");
  assert.equal(loc.searchParams.get("state"), "st-123");
  assert.equal(loc.searchParams.get("code"), null);
});

Deno.test("oauth consent: tampered hidden fields are checked again and never redirect elsewhere", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const res = await submit(
    folio,
    {
      ...fields,
      redirect_uri: "https://evil.test/cb",
      email: "r@example.com",
      accept_terms: "yes",
      decision: "approve",
    },
    { cookie },
  );
  await res.body?.cancel();
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("location"), null);
});

Deno.test("oauth 1.14: approving client A does not skip consent for a new client B", async () => {
  await using folio = await testFolio();
  const a = await consentSetup(folio);
  const page = await openConsent(folio, a.clientId, a.challenge);
  const approved = await submit(
    folio,
    { ...page.fields, email: "r@example.com", accept_terms: "yes", decision: "approve" },
    { cookie: page.cookie },
  );
  await approved.body?.cancel();
  assert.equal(approved.status, 303);
  const b = await registerClient(folio, { client_name: "Client B" });
  const res = await folio.request(
    `/api/oauth/authorize?${new URLSearchParams(
      authParams(folio, b, a.challenge) as Record<string, string>,
    )}`,
    { headers: { cookie: page.cookie }, redirect: "manual" },
  );
  const html = await res.text();
  assert.equal(res.status, 200);
  assert.ok(html.includes("Client B"));
  assert.equal(res.headers.get("location"), null);
});

Deno.test("oauth 1.15: the client name is escaped and the redirect host is shown", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio, { name: XSS });
  const { html } = await openConsent(folio, clientId, challenge);
  assert.ok(!html.includes(XSS));
  assert.ok(html.includes("&lt;img src=x onerror=alert(1)"));
  assert.ok(!/<img[^>]*onerror/i.test(html));
  assert.ok(html.includes("client.example"));
});

Deno.test("oauth consent: a buyer key links the install to the buyer's subscription", async () => {
  await using folio = await testFolio();
  const signup = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Acme AI", email: "ops@acme.example" }),
  });
  const { buyerId, apiKey } = await signup.json();
  const { clientId, challenge, verifier } = await consentSetup(folio);
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const { cookie, fields, html } = await openConsent(folio, clientId, challenge);
  assert.ok(html.includes("Link an existing subscription"));
  const base = { ...fields, email: "r@example.com", accept_terms: "yes", decision: "approve" };
  // One character changed (never to itself: a key ending in "x" would otherwise stay valid).
  const wrong = `${apiKey.slice(0, -1)}${apiKey.endsWith("x") ? "y" : "x"}`;
  const bad = await submit(folio, { ...base, buyer_key: wrong }, { cookie });
  await bad.body?.cancel();
  assert.equal(bad.status, 400);
  const ok = await submit(folio, { ...base, buyer_key: apiKey }, { cookie });
  await ok.body?.cancel();
  assert.equal(ok.status, 303);
  const code = new URL(ok.headers.get("location")!).searchParams.get("code")!;
  const tokens = await token(folio, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
  });
  const grant = await verifyAccessToken(folio.deps.store.db, String(tokens.body.access_token), {
    resource: resourceOf(folio),
    now: folio.clock.now(),
  });
  assert.equal(grant?.buyerId, buyerId);
});
