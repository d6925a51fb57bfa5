/** The publisher console in process: sign-up, sign-in, sessions, CSRF, overview, and isolation. */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import {
  checklistMarks,
  consoleSignUp,
  escapedStyle,
  hidden,
  textOf,
  Visitor,
} from "./console_helpers.ts";

Deno.test("issue 42: the console's sign-up redirects; reloading its welcome page shows no key and signs up no one", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio, { slug: "reload-gazette" });
  assert.match(apiKey, /^pk_/);
  const reload = await visitor.get("/publisher/welcome");
  assert.equal(reload.status, 200);
  assert.equal(reload.html.includes(apiKey), false);
  const rs = await folio.store.db.execute(
    "SELECT COUNT(*) AS n FROM publishers WHERE slug LIKE 'reload-gazette%'",
  );
  assert.equal(Number(rs.rows[0].n), 1);
});

Deno.test("a new publisher signs up in the console, sees its key once, and lands on the checklist", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey, slug } = await consoleSignUp(folio, { name: "Harbor Gazette" });
  assert.match(apiKey, /^pk_/);
  const overview = await visitor.get("/publisher");
  assert.equal(overview.status, 200);
  const text = textOf(overview.html);
  assert.match(text, /Getting started: 0 of 5 done/);
  assert.deepEqual(checklistMarks(overview.html), Array(5).fill(["todo", "○"]));
  assert.equal(escapedStyle(overview.html), false, "the stylesheet reaches the browser as written");
  assert.match(text, /Harbor Gazette/);
  assert.match(overview.html, new RegExp(`/api/mcp/pub_`));
  assert.equal(overview.html.includes(apiKey), false, "the key is never shown again");
  assert.match(overview.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
  assert.equal(overview.headers.get("x-frame-options"), "DENY");
  assert.equal(overview.headers.get("cache-control"), "no-store");
  // The key works on the API.
  const res = await folio.request("/api/publisher/session", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal((await res.json()).slug, slug);
});

Deno.test("signed-out visitors are sent to sign in and come back where they were going", async () => {
  await using folio = await testFolio();
  const { email } = await consoleSignUp(folio);
  const visitor = new Visitor(folio);
  const login = await visitor.get("/publisher/settings");
  assert.equal(login.url, "/publisher/login?next=%2Fpublisher%2Fsettings");
  const next = hidden(login.html, "next");
  assert.equal(next, "/publisher/settings");
  const wrong = await visitor.post("/publisher/login", {
    _csrf: hidden(login.html),
    email,
    password: "not the password",
    next,
  });
  assert.equal(wrong.status, 401);
  assert.match(textOf(wrong.html), /The email or password is incorrect/);
  assert.match(wrong.html, new RegExp(`value="${email.replace(".", "\\.")}"`), "email kept");
  const ok = await visitor.post("/publisher/login", {
    _csrf: hidden(wrong.html),
    email,
    password: PASSWORD,
    next,
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.url, "/publisher/settings");
});

Deno.test("the sign-in form refuses a post without its own token (login CSRF) and changes nothing", async () => {
  await using folio = await testFolio();
  const { email } = await consoleSignUp(folio);
  const visitor = new Visitor(folio);
  await visitor.get("/publisher/login");
  const forged = await visitor.post("/publisher/login", {
    _csrf: "x".repeat(32),
    email,
    password: PASSWORD,
    next: "/publisher",
  });
  assert.equal(forged.status, 403);
  assert.equal(visitor.cookies.has("folio_session"), false);
  const stranger = new Visitor(folio); // no token cookie at all
  const blind = await stranger.post("/publisher/login", { _csrf: "", email, password: PASSWORD });
  assert.equal(blind.status, 403);
});

Deno.test("next= only returns to console paths (no open redirect)", async () => {
  await using folio = await testFolio();
  const { email } = await consoleSignUp(folio);
  for (const next of ["https://evil.example/", "//evil.example", "/publisher/../api", "/api/v1"]) {
    const visitor = new Visitor(folio);
    const page = await visitor.get(`/publisher/login?next=${encodeURIComponent(next)}`);
    assert.equal(hidden(page.html, "next"), "/publisher");
    const after = await visitor.post("/publisher/login", {
      _csrf: hidden(page.html),
      email,
      password: PASSWORD,
      next,
    });
    assert.equal(after.url, "/publisher", next);
  }
});

Deno.test("sign-up problems are shown beside the typed values, and a taken slug is refused", async () => {
  await using folio = await testFolio();
  const { slug } = await consoleSignUp(folio);
  const visitor = new Visitor(folio);
  const page = await visitor.get("/publisher/signup");
  const taken = await visitor.post("/publisher/signup", {
    _csrf: hidden(page.html),
    name: "Second",
    email: "second@example.test",
    slug,
    password: PASSWORD,
  });
  assert.equal(taken.status, 409);
  assert.match(taken.html, /role="alert"/);
  assert.match(taken.html, /value="second@example\.test"/);
  const short = await visitor.post("/publisher/signup", {
    _csrf: hidden(taken.html),
    name: "Third",
    email: "third@example.test",
    slug: "third-one",
    password: "short",
  });
  assert.equal(short.status, 400);
  assert.match(textOf(short.html), /password/);
});

Deno.test("signing out needs the session's token; afterwards the pages ask to sign in", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const overview = await visitor.get("/publisher");
  const forged = await visitor.post("/publisher/logout", { _csrf: "nope" });
  assert.equal(forged.status, 403, "a forged sign-out changes nothing");
  assert.match(textOf(forged.html), /This form has expired/);
  const out = await visitor.post("/publisher/logout", { _csrf: hidden(overview.html) });
  assert.match(textOf(out.html), /You are signed out/);
  const again = await visitor.get("/publisher");
  assert.match(again.url, /^\/publisher\/login/);
});

Deno.test("a console page never shows another publisher's data", async () => {
  await using folio = await testFolio();
  const a = await consoleSignUp(folio, { name: "Alpha Times" });
  const b = await consoleSignUp(folio, { name: "Beta Post" });
  const pageA = await a.visitor.get("/publisher");
  const pageB = await b.visitor.get("/publisher");
  assert.match(pageA.html, /Alpha Times/);
  assert.doesNotMatch(pageA.html, /Beta Post/);
  assert.match(pageB.html, /Beta Post/);
  assert.notEqual(hidden(pageA.html), hidden(pageB.html));
});

Deno.test("unknown console pages answer a 404 page; the script is served from the binary", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const missing = await visitor.get("/publisher/nope");
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get("content-type")!, /text\/html/);
  const script = await folio.request("/publisher/console.js");
  assert.equal(script.status, 200);
  assert.match(script.headers.get("content-type")!, /javascript/);
  assert.match(await script.text(), /clipboard/);
});
