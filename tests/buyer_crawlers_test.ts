/** Crawlers in the buyer portal: the Web Bot Auth key directories, removing one, how to register. */
import assert from "node:assert/strict";
import { addSignatureAgent, listSignatureAgents } from "../store/signature_agents.ts";
import { browserTest, checkPage, pageText, submitForm, visitPage } from "./browser.ts";
import { hidden, textOf } from "./console_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { alertOf, browserSignUp, noticeText, portalSignUp } from "./buyer_helpers.ts";

async function buyerIdOf(folio: TestFolio, apiKey: string): Promise<string> {
  const res = await folio.request("/api/marketplace/account", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return (await json<{ buyerId: string }>(res)).buyerId;
}

async function register(folio: TestFolio, buyerId: string, agent: string): Promise<void> {
  const db = folio.deps.store.db;
  assert.ok(await addSignatureAgent(db, buyerId, agent, { now: folio.deps.clock.now() }));
}

Deno.test("the crawlers page: empty state, the signed registration call, and no key printed", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/crawlers");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /No key directory is registered to you yet/);
  assert.match(page.html, /<a href="\/buyer\/crawlers" aria-current="page">Crawlers<\/a>/);
  assert.match(text, /Web Bot Auth/);
  assert.match(text, /https:\/\/crawler\.example\/\.well-known\/http-message-signatures-directory/);
  assert.match(text, /curl -X POST http:\/\/[^ ]+\/api\/marketplace\/signature-agents/);
  assert.match(text, /Authorization: Bearer \$FOLIO_API_KEY/);
  assert.match(text, /Signature-Agent: "https:\/\/crawler\.example"/);
  assert.match(text, /Signature-Input: sig1=/);
  assert.match(text, /\{"agent": "https:\/\/crawler\.example"\}/);
  assert.match(text, /crawler-exact-price: USD 0\.05/);
  assert.match(text, /crawler-max-price/);
  assert.match(text, /crawler-charged/);
  assert.match(text, /Authorization: Bearer mk_…/);
  assert.equal(page.html.includes(apiKey), false, "the real key is never on the page");
  assert.doesNotMatch(page.html, /action="\/buyer\/crawlers\/remove"/, "nothing to remove");
});

Deno.test("a registered directory is listed and removed through the form (303 back, gone)", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const buyerId = await buyerIdOf(folio, apiKey);
  await register(folio, buyerId, "https://bot.acme.example");
  await register(folio, buyerId, "https://crawler.acme.example");
  const page = await visitor.get("/buyer/crawlers");
  const text = textOf(page.html);
  assert.match(text, /https:\/\/bot\.acme\.example/);
  assert.match(
    text,
    /https:\/\/bot\.acme\.example\/\.well-known\/http-message-signatures-directory/,
  );
  assert.doesNotMatch(text, /No key directory is registered/);

  // The form answers 303 to the page with its notice (post/redirect/get).
  const res = await folio.request("/buyer/crawlers/remove", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    },
    body: new URLSearchParams({ _csrf: hidden(page.html), agent: "https://bot.acme.example" }),
    redirect: "manual",
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/buyer/crawlers?done=removed");
  const after = await visitor.get("/buyer/crawlers?done=removed");
  assert.equal(
    noticeText(after.html),
    "Key directory removed: signatures from it no longer pay as you.",
  );
  assert.doesNotMatch(textOf(after.html), /https:\/\/bot\.acme\.example/);
  assert.match(textOf(after.html), /https:\/\/crawler\.acme\.example/);
  assert.deepEqual(
    (await listSignatureAgents(folio.deps.store.db, buyerId)).map((a) => a.agent),
    ["https://crawler.acme.example"],
  );

  // Removing one that is not (or no longer) yours shows the API's words.
  const again = await visitor.post("/buyer/crawlers/remove", {
    _csrf: hidden(after.html),
    agent: "https://bot.acme.example",
  });
  assert.equal(again.status, 404);
  assert.match(alertOf(again.html) ?? "", /signature agent/i);
});

Deno.test("removing a directory needs the session's CSRF token; another buyer's stays", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const buyerId = await buyerIdOf(folio, apiKey);
  await register(folio, buyerId, "https://bot.acme.example");
  const forged = await visitor.post("/buyer/crawlers/remove", {
    _csrf: "x".repeat(32),
    agent: "https://bot.acme.example",
  });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(alertOf(forged.html) ?? "", /^Nothing was changed/);
  assert.equal((await listSignatureAgents(folio.deps.store.db, buyerId)).length, 1);

  const other = await portalSignUp(folio, { name: "Other AI" });
  const otherPage = await other.visitor.get("/buyer/crawlers");
  assert.doesNotMatch(textOf(otherPage.html), /bot\.acme\.example/, "one buyer's list only");
  const notTheirs = await other.visitor.post("/buyer/crawlers/remove", {
    _csrf: hidden(otherPage.html),
    agent: "https://bot.acme.example",
  });
  assert.equal(notTheirs.status, 404);
  assert.equal((await listSignatureAgents(folio.deps.store.db, buyerId)).length, 1);
});

browserTest(
  "the crawlers page passes axe-core in Chromium, empty and with a directory",
  async ({ folio, page, base }) => {
    const apiKey = await browserSignUp(page, base, "buyer-signup");
    await visitPage(page, `${base}/buyer/crawlers`, "buyer-crawlers-empty");
    await register(folio, await buyerIdOf(folio, apiKey), "https://bot.acme.example");
    await visitPage(page, `${base}/buyer/crawlers`, "buyer-crawlers");
    assert.match(await pageText(page), /https:\/\/bot\.acme\.example/);
    assert.equal(await submitForm(page, "form[action='/buyer/crawlers/remove']"), 200);
    assert.match(await pageText(page), /Key directory removed/);
    await checkPage(page, "buyer-crawlers-removed");
    assert.equal(await submitForm(page, "form[action='/buyer/crawlers/olp']"), 200);
    assert.match(await pageText(page), /Your license server secret/);
    await checkPage(page, "buyer-crawlers-olp-secret");
  },
);

Deno.test("license server credentials: issued and rotated through the form, the secret shown once", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const buyerId = await buyerIdOf(folio, apiKey);
  const page = await visitor.get("/buyer/crawlers");
  assert.match(textOf(page.html), /You have no license server credentials yet/);

  const forged = await visitor.post("/buyer/crawlers/olp", { _csrf: "x".repeat(32) });
  assert.equal(forged.status, 403);
  const none = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM olp_clients WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(none.rows[0].n), 0, "a forged form issues nothing");

  const token = async (id: string, secret: string) =>
    (await folio.request("/api/olp/token", {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${id}:${secret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=rsl&resource=http%3A%2F%2Fdemo.localhost%2F&license=x",
    })).json();
  const issue = async () => {
    const res = await visitor.post("/buyer/crawlers/olp", { _csrf: hidden(page.html) });
    assert.equal(res.status, 200);
    const secret = /olps_[A-Za-z0-9]+/.exec(res.html)?.[0];
    const clientId = /olp_[A-Za-z0-9]{20}/.exec(res.html)?.[0];
    assert.ok(secret && clientId, "the secret and the client id are shown");
    assert.match(textOf(res.html), /shown only this once/);
    return { secret, clientId };
  };
  const first = await issue();
  // The client authenticates (the bad license is refused after it): invalid_request, not invalid_client.
  assert.equal((await token(first.clientId, first.secret)).error, "invalid_request");
  const again = await visitor.get("/buyer/crawlers");
  assert.equal(again.html.includes(first.secret), false, "not shown again");
  assert.match(textOf(again.html), new RegExp(`Client id ${first.clientId}`));

  const second = await issue();
  assert.equal(second.clientId, first.clientId);
  assert.equal((await token(first.clientId, first.secret)).error, "invalid_client", "rotated out");
  assert.equal((await token(second.clientId, second.secret)).error, "invalid_request");
});
