/**
 * Issue 28: the console's account page changes the dashboard password with a plain form (no
 * JavaScript) carrying the session's CSRF token; the change signs out the other sessions.
 */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf, Visitor } from "./console_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";

const NEW_PASSWORD = "a brand new passphrase";

/** A second browser signed in to the same account. */
async function secondSession(visitor: Visitor, email: string): Promise<Visitor> {
  const other = new Visitor(visitor.folio);
  const page = await other.get("/publisher/login");
  const signedIn = await other.post("/publisher/login", {
    _csrf: hidden(page.html),
    email,
    password: PASSWORD,
    next: "/publisher",
  });
  assert.equal(signedIn.url, "/publisher");
  return other;
}

Deno.test("the account page changes the password without JavaScript and signs out the other sessions", async () => {
  await using folio = await testFolio();
  const { visitor, email } = await consoleSignUp(folio);
  const other = await secondSession(visitor, email);
  const page = await visitor.get("/publisher/account");
  assert.equal(page.status, 200);
  assert.match(page.html, /<form method="post" action="\/publisher\/account\/password">/);
  assert.match(page.html, /href="\/publisher\/account" aria-current="page"/);
  const done = await visitor.post("/publisher/account/password", {
    _csrf: hidden(page.html),
    currentPassword: PASSWORD,
    password: NEW_PASSWORD,
  });
  assert.equal(done.status, 200);
  assert.equal(done.url, "/publisher/account?done=password");
  assert.match(textOf(done.html), /Password changed\. Your other sessions are signed out\./);
  // This browser stays signed in; the other one is sent to sign in.
  assert.equal((await visitor.get("/publisher/settings")).url, "/publisher/settings");
  const ended = await other.get("/publisher/settings");
  assert.equal(ended.url, "/publisher/login?next=%2Fpublisher%2Fsettings");
  const again = await other.post("/publisher/login", {
    _csrf: hidden(ended.html),
    email,
    password: NEW_PASSWORD,
    next: "/publisher",
  });
  assert.equal(again.url, "/publisher");
});

Deno.test("the password form shows the API's sentence for a wrong or weak password, and a forged form changes nothing", async () => {
  await using folio = await testFolio();
  const { visitor, email } = await consoleSignUp(folio);
  const other = await secondSession(visitor, email);
  const page = await visitor.get("/publisher/account");
  const csrf = hidden(page.html);
  const wrong = await visitor.post("/publisher/account/password", {
    _csrf: csrf,
    currentPassword: "not my password",
    password: NEW_PASSWORD,
  });
  assert.equal(wrong.status, 401);
  assert.match(textOf(wrong.html), /Current password: is incorrect/);
  assert.match(
    wrong.html,
    /aria-invalid="true" aria-describedby="currentPassword-error" id="currentPassword"/,
  );
  assert.match(wrong.html, /role="alert"/);
  assert.doesNotMatch(wrong.html, /not my password/, "passwords typed are not echoed");
  const weak = await visitor.post("/publisher/account/password", {
    _csrf: csrf,
    currentPassword: PASSWORD,
    password: "short",
  });
  assert.equal(weak.status, 400);
  assert.match(textOf(weak.html), /New password: must be at least 10 characters/);
  const forged = await visitor.post("/publisher/account/password", {
    _csrf: "forged",
    currentPassword: PASSWORD,
    password: NEW_PASSWORD,
  });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(textOf(forged.html), /This form has expired Nothing was changed/);
  // Nothing changed: the other session is signed in, and the old password still works.
  assert.equal((await other.get("/publisher/settings")).url, "/publisher/settings");
  await secondSession(visitor, email);
});

Deno.test("rotating the key in settings signs out the other console sessions", async () => {
  await using folio = await testFolio();
  const { visitor, email } = await consoleSignUp(folio);
  const other = await secondSession(visitor, email);
  const page = await visitor.get("/publisher/settings");
  const rotated = await visitor.post("/publisher/settings/key", { _csrf: hidden(page.html) });
  assert.equal(rotated.status, 200);
  assert.equal((await visitor.get("/publisher/settings")).url, "/publisher/settings");
  assert.match((await other.get("/publisher/settings")).url, /^\/publisher\/login\?next=/);
});
