/** docs/TEST-PLAN.md section 1, cases 13-15: the branded consent screen, CSRF and framing. */
import assert from "node:assert/strict";
import { verifyAccessToken } from "../server/domain/accounts/tokens.ts";
import { testFolio } from "./helpers.ts";
import type { TestFolio } from "./helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { hidden, textOf, Visitor } from "./console_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
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
  assert.ok(!html.includes("sign in to the buyer portal"), "no linking unless configured");
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

/** A buyer signed in to the portal (cookie header for its session) and its id. */
async function portalBuyer(folio: TestFolio, name: string) {
  const { visitor } = await portalSignUp(folio, { name });
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT id FROM buyers WHERE name = ?",
    args: [name],
  });
  const buyerId = String(rs.rows[0].id);
  return {
    visitor,
    buyerId,
    cookie: `folio_buyer_session=${visitor.cookies.get("folio_buyer_session")}`,
  };
}

async function grantOf(folio: TestFolio, res: Response, clientId: string, verifier: string) {
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
  const tokens = await token(folio, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
  });
  return await verifyAccessToken(folio.deps.store.db, String(tokens.body.access_token), {
    resource: resourceOf(folio),
    now: folio.clock.now(),
  });
}

Deno.test("issue 42: the consent page says who pays, what the app may do, and that its name is unverified; it asks for no key", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { html } = await openConsent(folio, clientId, challenge);
  const text = textOf(html);
  assert.match(text, /Reader App Unverified name/);
  assert.match(text, /The app chose this name itself when it registered/);
  assert.match(text, /your browser returns to client\.example ?: go on only if/);
  assert.match(text, /Search The Demo Ledger's catalog and read its articles/);
  assert.match(text, /Fine-tuning \(model training\): denied/);
  assert.match(text, /Who pays for its reads Nobody is billed/);
  assert.match(text, /The Demo Ledger does not bill apps to buyer accounts/);
  assert.doesNotMatch(html, /buyer_key|mk_|API key/, "no key is ever asked for");
  assert.match(html, /<main class="auth consent" id="main">/);
  // With subscription linking on and nobody signed in: the portal's sign-in, coming back here.
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const linking = await openConsent(folio, clientId, challenge);
  const signIn = /href="(\/buyer\/login\?next=[^"]+)"/.exec(linking.html)?.[1];
  assert.ok(signIn, "a sign-in link");
  const next = new URL(signIn.replaceAll("&amp;", "&"), "http://x").searchParams.get("next")!;
  assert.ok(next.startsWith("/api/oauth/authorize?"));
  assert.equal(new URL(next, "http://x").searchParams.get("client_id"), clientId);
});

Deno.test("issue 42: a buyer signed in to the portal sees its account as the payer; allowing bills the install to it", async () => {
  await using folio = await testFolio();
  const { buyerId, cookie: buyerCookie } = await portalBuyer(folio, "Acme AI");
  const { clientId, challenge, verifier } = await consentSetup(folio);
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const q = new URLSearchParams(authParams(folio, clientId, challenge) as Record<string, string>);
  const res = await folio.request(`/api/oauth/authorize?${q}`, {
    headers: { cookie: buyerCookie },
  });
  const html = await res.text();
  const text = textOf(html);
  assert.match(text, /You are signed in to the buyer account Acme AI/);
  assert.match(text, /it pays for every article the app reads/);
  assert.match(html, /href="\/buyer\/budgets">budgets<\/a>/);
  assert.match(html, new RegExp(`name="buyer" value="${buyerId}"`));
  const cookie = [(res.headers.get("set-cookie") ?? "").split(";")[0], buyerCookie].join("; ");
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)) {
    fields[unescape(m[1])] = unescape(m[2]);
  }
  const ok = await submit(folio, {
    ...fields,
    email: "r@acme.example",
    accept_terms: "yes",
    payer: "buyer",
    decision: "approve",
  }, { cookie });
  await ok.body?.cancel();
  assert.equal(ok.status, 303);
  const grant = await grantOf(folio, ok, clientId, verifier);
  assert.equal(grant?.buyerId, buyerId);
  // The next consent for this install names the account it is billed to.
  const again = await openConsent(folio, clientId, challenge);
  assert.match(textOf(again.html), /The buyer account Acme AI \([^)]+\) pays for every article/);
});

Deno.test("issue 42: choosing nobody bills nobody, even when signed in", async () => {
  await using folio = await testFolio();
  const { buyerId, cookie: buyerCookie } = await portalBuyer(folio, "Acme AI");
  const { clientId, challenge, verifier } = await consentSetup(folio);
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const res = await submit(folio, {
    ...fields,
    buyer: buyerId,
    email: "r@acme.example",
    accept_terms: "yes",
    payer: "none",
    decision: "approve",
  }, { cookie: `${cookie}; ${buyerCookie}` });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  assert.equal((await grantOf(folio, res, clientId, verifier))?.buyerId, null);
});

Deno.test("issue 42: a session that is not the one the page showed, or none, bills nobody and asks again", async () => {
  await using folio = await testFolio();
  const a = await portalBuyer(folio, "Acme AI");
  const b = await portalBuyer(folio, "Other Corp");
  const { clientId, challenge } = await consentSetup(folio);
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const approve = {
    ...fields,
    buyer: a.buyerId,
    email: "r@acme.example",
    accept_terms: "yes",
    payer: "buyer",
    decision: "approve",
  };
  const cases: [string, string, RegExp][] = [
    ["another buyer", `${cookie}; ${b.cookie}`, /now signed in as Other Corp, not the account/],
    ["no session", cookie, /no longer signed in to a buyer account/],
    ["a forged session", `${cookie}; folio_buyer_session=bs_forged`, /no longer signed in/],
  ];
  for (const [why, cookies, words] of cases) {
    const res = await submit(folio, approve, { cookie: cookies });
    const html = await res.text();
    assert.equal(res.status, 400, why);
    assert.equal(res.headers.get("location"), null, why);
    assert.match(textOf(html), words, why);
  }
  const codes = await folio.deps.store.db.execute("SELECT COUNT(*) AS n FROM oauth_codes");
  assert.equal(Number(codes.rows[0].n), 0, "no code was issued");
  const linked = await folio.deps.store.db.execute({
    sql: "SELECT buyer_id FROM oauth_clients WHERE id = ?",
    args: [clientId],
  });
  assert.equal(linked.rows[0].buyer_id, null);
});

Deno.test("issue 42: signing in from the consent page with the portal's sign-in comes back to the consent", async () => {
  await using folio = await testFolio();
  const { visitor: signup, email } = await portalSignUp(folio, { name: "Acme AI" });
  signup.cookies.clear();
  const { clientId, challenge } = await consentSetup(folio);
  await setToggles(folio, "pub_demo", { subscriptionLinking: true });
  const visitor = new Visitor(folio);
  const q = new URLSearchParams(authParams(folio, clientId, challenge) as Record<string, string>);
  const consent = await visitor.get(`/api/oauth/authorize?${q}`);
  const signIn = /href="(\/buyer\/login\?next=[^"]+)"/.exec(consent.html)![1].replaceAll(
    "&amp;",
    "&",
  );
  const login = await visitor.get(signIn);
  assert.equal(login.status, 200);
  assert.match(textOf(login.html), /you go back to its connection page next/);
  const back = await visitor.post("/buyer/login", {
    _csrf: hidden(login.html),
    email,
    password: PASSWORD,
    next: unescape(hidden(login.html, "next")),
  });
  assert.equal(back.status, 200);
  assert.ok(back.url.startsWith("/api/oauth/authorize?"), back.url);
  assert.match(textOf(back.html), /You are signed in to the buyer account Acme AI/);
  // A next= elsewhere is refused as before (no open redirect).
  const elsewhere = await visitor.get(
    "/buyer/login?next=" + encodeURIComponent("//evil.example/x"),
  );
  assert.equal(hidden(elsewhere.html, "next"), "/buyer");
  const odd = await visitor.get(
    "/buyer/login?next=" + encodeURIComponent("/api/oauth/authorize?x=<script>"),
  );
  assert.equal(hidden(odd.html, "next"), "/buyer");
});

Deno.test("issue 42: a consent answer without its token gets a page in words with the way back", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  const { cookie, fields } = await openConsent(folio, clientId, challenge);
  const { csrf_token: _, ...noToken } = fields;
  const res = await submit(
    folio,
    { ...noToken, email: "r@example.com", accept_terms: "yes", decision: "approve" },
    { cookie },
  );
  const html = await res.text();
  assert.equal(res.status, 403);
  assert.match(textOf(html), /This connection request has expired Nothing was allowed/);
  const again = /<a href="([^"]+)">Open the connection request again<\/a>/.exec(html)?.[1];
  assert.ok(again);
  const url = new URL(again.replaceAll("&amp;", "&"), "http://x");
  assert.equal(url.pathname, "/api/oauth/authorize");
  assert.equal(url.searchParams.get("client_id"), clientId);
  assert.equal(url.searchParams.get("email"), null, "the answer's own fields are not carried");
});

Deno.test("issue 42: a redirect to a host the client did not register is refused on the page, never followed", async () => {
  await using folio = await testFolio();
  const { clientId, challenge } = await consentSetup(folio);
  for (
    const uri of [
      "https://evil.test/cb",
      "https://client.example.evil.test/cb",
      "https://client.example/cb/x",
    ]
  ) {
    const res = await authorizeRaw(
      folio,
      authParams(folio, clientId, challenge, { redirect_uri: uri }),
    );
    const html = await res.text();
    assert.equal(res.status, 400, uri);
    assert.equal(res.headers.get("location"), null, uri);
    assert.match(textOf(html), /This connection request cannot continue/);
    assert.doesNotMatch(html, /evil\.test/, "the foreign host is not offered as a link");
  }
});
