/** Keys & clients in the buyer portal: rotation shown once, the password, claiming MCP clients. */
import assert from "node:assert/strict";
import { hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { registerClient } from "./oauth_helpers.ts";
import {
  alertOf,
  apiSignup,
  keyVisitor,
  noticeText,
  portalSignUp,
  signIn,
} from "./buyer_helpers.ts";

Deno.test("rotating the key shows the new key once; the old key stops working; this session stays", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/keys");
  const rotated = await visitor.post("/buyer/keys/rotate", { _csrf: hidden(page.html) });
  assert.equal(rotated.status, 200);
  const newKey = /data-copy="(mk_[^"]+)"/.exec(rotated.html)?.[1];
  assert.ok(newKey && newKey !== apiKey);
  assert.match(textOf(rotated.html), /shown only this once/);
  assert.equal(noticeText(rotated.html), "New key issued; the old one no longer works.");
  assert.equal(rotated.headers.get("cache-control"), "no-store");
  const old = await folio.request("/api/marketplace/account", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(old.status, 401);
  await old.body?.cancel();
  const again = await visitor.get("/buyer/keys");
  assert.equal(again.status, 200, "still signed in");
  assert.equal(again.html.includes(newKey), false, "shown once");
  assert.match(textOf(again.html), new RegExp(`ends in mk_…${newKey.slice(-4)}`));
});

Deno.test("a forged rotation is refused with 403 and the key keeps working", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const forged = await visitor.post("/buyer/keys/rotate", { _csrf: "x".repeat(32) });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(alertOf(forged.html) ?? "", /^Nothing was changed/);
  const still = await folio.request("/api/marketplace/account", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(still.status, 200);
  await still.body?.cancel();
});

Deno.test("changing the password needs the current one; refusals keep the form and say why", async () => {
  await using folio = await testFolio();
  const { visitor, email } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/keys");
  assert.match(textOf(page.html), /Change password/);
  const csrf = hidden(page.html);
  const wrong = await visitor.post("/buyer/keys/password", {
    _csrf: csrf,
    currentPassword: "not the password",
    password: "a brand new password",
  });
  assert.equal(wrong.status, 401);
  assert.equal(alertOf(wrong.html), "Current password: is incorrect");
  const short = await visitor.post("/buyer/keys/password", {
    _csrf: csrf,
    currentPassword: PASSWORD,
    password: "short",
  });
  assert.equal(short.status, 400);
  assert.equal(alertOf(short.html), "New password: must be at least 10 characters");
  assert.match(short.html, /aria-invalid="true" aria-describedby="password-error password-hint"/);
  const ok = await visitor.post("/buyer/keys/password", {
    _csrf: csrf,
    currentPassword: PASSWORD,
    password: "a brand new password",
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.url, "/buyer/keys?done=password");
  assert.equal(noticeText(ok.html), "Password saved. Your other sessions are signed out.");
  await signIn(folio, { email, password: "a brand new password" });
});

Deno.test("a buyer without a password sets one from the keys page", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { email: "keyless@acme.test" });
  const visitor = await keyVisitor(folio, apiKey);
  const page = await visitor.get("/buyer/keys");
  assert.match(textOf(page.html), /Set a password/);
  assert.equal(page.html.includes('name="currentPassword"'), false);
  const set = await visitor.post("/buyer/keys/password", {
    _csrf: hidden(page.html),
    password: PASSWORD,
  });
  assert.equal(set.url, "/buyer/keys?done=password");
  await signIn(folio, { email: "keyless@acme.test", password: PASSWORD });
});

Deno.test("claiming an MCP client: unknown is 404 with the API's words, a registered one is listed", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/keys");
  assert.match(textOf(page.html), /No MCP client is registered to you yet/);
  const unknown = await visitor.post("/buyer/keys/clients", {
    _csrf: hidden(page.html),
    clientId: "nope",
  });
  assert.equal(unknown.status, 404);
  assert.equal(alertOf(unknown.html), "OAuth client was not found");
  assert.match(unknown.html, /value="nope"/, "what was typed stays");
  const clientId = await registerClient(folio, { client_name: "Claude Desktop" });
  const claimed = await visitor.post("/buyer/keys/clients", {
    _csrf: hidden(page.html),
    clientId,
  });
  assert.equal(claimed.url, "/buyer/keys?done=client");
  assert.match(noticeText(claimed.html)!, /Client claimed/);
  assert.match(textOf(claimed.html), new RegExp(`${clientId} Claude Desktop`));
});
