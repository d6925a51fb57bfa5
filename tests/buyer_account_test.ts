/** The buyer portal's sign-up, sign-in (by password or key) and sign-out, in process. */
import assert from "node:assert/strict";
import { hidden, textOf, Visitor } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { alertOf, apiSignup, portalSignUp } from "./buyer_helpers.ts";

Deno.test("a buyer signs up in the portal, sees the key once with a warning and a copy button, and is signed in", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey, welcome } = await portalSignUp(folio, { name: "Acme AI" });
  assert.match(apiKey, /^mk_/);
  const text = textOf(welcome.html);
  assert.match(text, /Copy it now: it is shown only this once/);
  assert.match(welcome.html, /class="secondary copy-button"/);
  assert.match(welcome.html, /href="\/buyer"/);
  assert.equal(welcome.headers.get("cache-control"), "no-store");
  assert.ok(visitor.cookies.has("folio_buyer_session"), "the sign-up signs the visitor in");

  const keys = await visitor.get("/buyer/keys");
  assert.equal(keys.status, 200);
  assert.equal(keys.html.includes(apiKey), false, "the key is never shown again");
  assert.match(textOf(keys.html), new RegExp(`ends in mk_…${apiKey.slice(-4)}`));
  assert.match(keys.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
  assert.match(keys.headers.get("content-security-policy")!, /form-action 'self'/);
  assert.equal(keys.headers.get("x-frame-options"), "DENY");
  assert.equal(keys.headers.get("cache-control"), "no-store");

  // The key works on the API.
  const res = await folio.request("/api/marketplace/account", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal((await res.json()).hasPassword, true);
});

Deno.test("issue 42: sign-up answers with a redirect; reloading the welcome page posts nothing and shows no key", async () => {
  await using folio = await testFolio();
  const visitor = new Visitor(folio);
  const page = await visitor.get("/buyer/signup");
  const res = await folio.request("/buyer/signup", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    },
    body: new URLSearchParams({
      _csrf: hidden(page.html),
      name: "Acme AI",
      email: "reload@acme.test",
      password: PASSWORD,
    }).toString(),
    redirect: "manual",
  });
  await res.body?.cancel();
  assert.equal(res.status, 303, "the POST answers with a redirect, not the page");
  assert.equal(res.headers.get("location"), "/buyer/welcome");
  assert.equal(JSON.stringify(res.headers).includes("mk_"), false);
  for (const line of res.headers.getSetCookie()) {
    const [name, value] = line.split(";")[0].split("=");
    visitor.cookies.set(name, value);
  }
  const welcome = await visitor.get("/buyer/welcome");
  assert.equal(welcome.status, 200);
  assert.match(welcome.html, /data-copy="mk_/);
  assert.equal(welcome.headers.get("cache-control"), "no-store");
  // A reload: the key is not shown again and no second account is made.
  const reload = await visitor.get("/buyer/welcome");
  assert.equal(reload.status, 200);
  assert.equal(reload.url, "/buyer/keys", "a reload lands where a lost key is replaced");
  assert.doesNotMatch(reload.html, /mk_[0-9A-Za-z]{38}/);
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers");
  assert.equal(Number(rs.rows[0].n), 1);
  // Another browser (no form cookie) opening the page finds nothing either.
  const stranger = await new Visitor(folio).get("/buyer/welcome");
  assert.doesNotMatch(stranger.html, /mk_[0-9A-Za-z]{38}/);
});

Deno.test("a refused sign-up shows the API's words with its status and keeps what was typed", async () => {
  await using folio = await testFolio();
  await apiSignup(folio, { email: "taken@acme.test" });
  const visitor = new Visitor(folio);
  const page = await visitor.get("/buyer/signup");
  const taken = await visitor.post("/buyer/signup", {
    _csrf: hidden(page.html),
    name: "Second Acme",
    email: "TAKEN@acme.test",
    password: PASSWORD,
  });
  assert.equal(taken.status, 409);
  assert.equal(alertOf(taken.html), "email: a buyer account with this email already exists");
  assert.match(taken.html, /value="Second Acme"/);
  assert.equal(taken.html.includes(PASSWORD), false, "the password is not echoed");
  const short = await visitor.post("/buyer/signup", {
    _csrf: hidden(taken.html),
    name: "Acme",
    email: "new@acme.test",
    password: "short",
  });
  assert.equal(short.status, 400);
  assert.equal(alertOf(short.html), "password: must be at least 10 characters");
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers");
  assert.equal(Number(rs.rows[0].n), 1);
});

Deno.test("the anonymous forms refuse a post without their own token (login CSRF) and change nothing", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { password: PASSWORD });
  const visitor = new Visitor(folio);
  await visitor.get("/buyer/login");
  for (
    const [path, fields] of [
      ["/buyer/login", { email: "ops@acme.test", password: PASSWORD }],
      ["/buyer/login/key", { apiKey }],
      ["/buyer/signup", { name: "X", email: "x@acme.test", password: PASSWORD }],
    ] as const
  ) {
    const forged = await visitor.post(path, { _csrf: "x".repeat(32), ...fields });
    assert.equal(forged.status, 403, path);
    assert.match(alertOf(forged.html) ?? "", /^The form expired, so nothing was sent/);
    assert.equal(visitor.cookies.has("folio_buyer_session"), false);
    const blind = await new Visitor(folio).post(path, { _csrf: "", ...fields });
    assert.equal(blind.status, 403);
  }
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers");
  assert.equal(Number(rs.rows[0].n), 1);
});

Deno.test("signing in by password or by key returns where the visitor was going; failures are one 401", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
  const visitor = new Visitor(folio);
  const login = await visitor.get("/buyer/keys");
  assert.equal(login.url, "/buyer/login?next=%2Fbuyer%2Fkeys");
  assert.equal(hidden(login.html, "next"), "/buyer/keys");
  for (
    const [path, fields] of [
      ["/buyer/login", { email: "ops@acme.test", password: "not the password" }],
      ["/buyer/login", { email: "nobody@acme.test", password: PASSWORD }],
      ["/buyer/login/key", { apiKey: "mk_nope" }],
    ] as const
  ) {
    const wrong = await visitor.post(path, {
      _csrf: hidden(login.html),
      next: "/buyer/keys",
      ...fields,
    });
    assert.equal(wrong.status, 401, path);
    assert.equal(alertOf(wrong.html), "The email or password is incorrect");
  }
  const byKey = await visitor.post("/buyer/login/key", {
    _csrf: hidden(login.html),
    apiKey,
    next: "/buyer/keys",
  });
  assert.equal(byKey.status, 200);
  assert.equal(byKey.url, "/buyer/keys");

  const other = new Visitor(folio);
  const page = await other.get("/buyer/login");
  const byPassword = await other.post("/buyer/login", {
    _csrf: hidden(page.html),
    email: "OPS@acme.test",
    password: PASSWORD,
    next: "/buyer/keys",
  });
  assert.equal(byPassword.status, 200);
  assert.equal(byPassword.url, "/buyer/keys");
});

Deno.test("next= only returns to buyer portal paths (no open redirect)", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio);
  for (const next of ["https://evil.example/", "//evil.example", "/buyer/../api", "/publisher"]) {
    const visitor = new Visitor(folio);
    const page = await visitor.get(`/buyer/login?next=${encodeURIComponent(next)}`);
    assert.equal(hidden(page.html, "next"), "/buyer");
    const res = await folio.request("/buyer/login/key", {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      },
      body: new URLSearchParams({ _csrf: hidden(page.html), apiKey, next }).toString(),
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/buyer");
    await res.body?.cancel();
  }
});

Deno.test("signing out needs the session's token, ends the session and says so", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const keys = await visitor.get("/buyer/keys");
  const forged = await visitor.post("/buyer/logout", { _csrf: "nope" });
  assert.equal(forged.status, 403, "a forged sign-out changes nothing");
  assert.match(textOf(forged.html), /This form has expired/);
  assert.ok(visitor.cookies.has("folio_buyer_session"));
  const out = await visitor.post("/buyer/logout", { _csrf: hidden(keys.html) });
  assert.equal(out.url, "/buyer/login?done=signed-out");
  assert.match(textOf(out.html), /You are signed out/);
  assert.equal(visitor.cookies.has("folio_buyer_session"), false);
  const after = await visitor.get("/buyer/keys");
  assert.equal(after.url, "/buyer/login?next=%2Fbuyer%2Fkeys");
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyer_sessions");
  assert.equal(Number(rs.rows[0].n), 0);
});

Deno.test("the front page leads AI companies to the buyer portal", async () => {
  await using folio = await testFolio();
  const home = await (await folio.request("/")).text();
  assert.match(home, /<a href="\/buyer\/signup">create a buyer account<\/a>/);
  assert.match(home, /<a href="\/buyer\/login">sign in to your buyer portal<\/a>/);
  // In a person's words: no API operation, and a link for developers to the sign-up's reference.
  assert.doesNotMatch(home, /POST \/api\//);
  assert.match(
    home,
    /<a href="\/docs#post-api-marketplace-signup">signing up in the API reference/,
  );
  const docs = await (await folio.request("/docs")).text();
  assert.match(docs, /id="post-api-marketplace-signup"/);
});
