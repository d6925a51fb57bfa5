/**
 * Rotating a key asks first (issue 34): the settings and keys pages link to a confirmation page
 * that says the old key stops working at once; its form rotates, without JavaScript. Nothing
 * changes until it is posted.
 */
import assert from "node:assert/strict";
import { noticeText, portalSignUp } from "./buyer_helpers.ts";
import { demoVisitor, hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { bearer } from "./manage_helpers.ts";

Deno.test("the publisher key is rotated only from its confirmation page", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const settings = await visitor.get("/publisher/settings");
  assert.match(settings.html, /<a class="button danger" href="\/publisher\/settings\/key">/);
  assert.ok(!settings.html.includes('action="/publisher/settings/key"'), "no one-click rotation");

  const confirm = await visitor.get("/publisher/settings/key");
  assert.equal(confirm.status, 200);
  assert.match(
    textOf(confirm.html),
    /stops working immediately .*no grace period/,
  );
  assert.match(confirm.html, /<form method="post" action="\/publisher\/settings\/key"/);
  assert.match(confirm.html, /href="\/publisher\/settings#key">Cancel</);
  // Looking at the confirmation changed nothing: the old key still works.
  const still = await folio.request("/api/publisher/settings", {
    headers: bearer(folio.seeded!.apiKey),
  });
  assert.equal(still.status, 200);
  await still.body?.cancel();

  const rotated = await visitor.post("/publisher/settings/key", { _csrf: hidden(confirm.html) });
  assert.equal(rotated.status, 200);
  assert.match(textOf(rotated.html), /shown only this once/);
  const old = await folio.request("/api/publisher/settings", {
    headers: bearer(folio.seeded!.apiKey),
  });
  assert.equal(old.status, 401);
  await old.body?.cancel();

  // The POST answered 303 to a page that shows the key once: a reload rotates nothing.
  assert.equal(rotated.url, "/publisher/settings/key/new");
  const newKey = /data-copy="(pk_[^"]+)"/.exec(rotated.html)![1];
  const reloaded = await visitor.get(rotated.url);
  assert.equal(reloaded.url, "/publisher/settings", "nothing to show: back to the settings");
  assert.ok(!reloaded.html.includes(newKey), "the key is shown once");
  const works = await folio.request("/api/publisher/settings", { headers: bearer(newKey) });
  assert.equal(works.status, 200, "the reload did not rotate again");
  await works.body?.cancel();
});

Deno.test("the buyer key is rotated only from its confirmation page", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const keys = await visitor.get("/buyer/keys");
  assert.match(keys.html, /href="\/buyer\/keys\/rotate"/);
  assert.ok(!keys.html.includes('action="/buyer/keys/rotate"'), "no one-click rotation");

  const confirm = await visitor.get("/buyer/keys/rotate");
  assert.equal(confirm.status, 200);
  const text = textOf(confirm.html);
  assert.match(text, /Rotate your API key\?/);
  assert.ok(text.includes(`mk_…${apiKey.slice(-4)}`), text);
  assert.match(text, /stops working immediately/);

  const rotated = await visitor.post("/buyer/keys/rotate", { _csrf: hidden(confirm.html) });
  assert.equal(rotated.status, 200);
  assert.equal(noticeText(rotated.html), "New key issued; the old one no longer works.");
  assert.equal(rotated.url, "/buyer/keys/new");
  const newKey = /data-copy="(mk_[^"]+)"/.exec(rotated.html)![1];
  const reloaded = await visitor.get(rotated.url);
  assert.equal(reloaded.url, "/buyer/keys");
  assert.ok(!reloaded.html.includes(newKey), "the key is shown once");
  const works = await folio.request("/api/marketplace/account", { headers: bearer(newKey) });
  assert.equal(works.status, 200, "the reload did not rotate again");
  await works.body?.cancel();
});
