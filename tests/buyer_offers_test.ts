/**
 * The buyer portal's requests and offers page (/buyer/offers): requests with their state and the
 * publisher's reason, open offers with what accepting bills, accept and decline forms (CSRF), and
 * an offer that cannot be accepted any more shown as such.
 */
import assert from "node:assert/strict";
import { hidden, textOf } from "./console_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

async function ask(folio: TestFolio, apiKey: string, useCase: string, max?: number) {
  const res = await folio.request("/api/marketplace/license-requests", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      publisherId: "pub_demo",
      useCase,
      message: "Please",
      ...(max === undefined ? {} : { maxMonthlyUsdCents: max }),
    }),
  });
  return (await json<Body>(res)).requestId as string;
}

async function decide(folio: TestFolio, id: string, action: string, body: Body) {
  const res = await folio.request(`/api/publisher/license-requests/${id}/${action}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${folio.seeded!.apiKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return await json<Body>(res);
}

Deno.test("with no request the page explains offers; the nav links to it", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/offers");
  assert.equal(page.status, 200);
  assert.match(textOf(page.html), /No license requests yet/);
  assert.match(textOf(page.html), /nothing is billed before you accept/);
  assert.match(page.html, /href="\/buyer\/offers"/);
});

Deno.test("offers are accepted and declined from the portal; denials show the reason", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const a = await ask(folio, apiKey, "fine_tuning", 30_000);
  const b = await ask(folio, apiKey, "rag");
  const c = await ask(folio, apiKey, "display");
  const offerA = (await decide(folio, a, "approve", { monthlyPriceUsdCents: 30_000 })).offer.id;
  const offerB = (await decide(folio, b, "approve", { monthlyPriceUsdCents: 1_000 })).offer.id;
  await decide(folio, c, "deny", { reason: "Display is not for sale" });

  const page = await visitor.get("/buyer/offers");
  const text = textOf(page.html);
  assert.match(text, /Publisher's reason Display is not for sale/);
  assert.match(text, /Your maximum \$300\.00 a month/);
  assert.match(text, /fine-tuning for \$300\.00 a month, until you cancel/);
  assert.match(text, /Accepting bills \$155\.00 on this month's statement/);
  assert.match(text, /Accept and pay \$155\.00/);
  // The page speaks to the reader: no API sentence, route or wire name in it.
  assert.doesNotMatch(text, /POST \/api|fine_tuning|T\d\d:\d\d:\d\d\.\d{3}Z/);
  assert.match(page.html, new RegExp(`action="/buyer/offers/${offerA}/accept"`));

  const forged = await visitor.post(`/buyer/offers/${offerA}/accept`, { _csrf: "nope" });
  assert.equal(forged.status, 403);
  assert.match(forged.html, /class="problem" role="alert"/);

  const accepted = await visitor.post(`/buyer/offers/${offerA}/accept`, {
    _csrf: hidden(page.html),
  });
  assert.equal(accepted.url, "/buyer/offers?done=accepted");
  assert.match(textOf(accepted.html), /Offer accepted: the license is active/);
  const again = await visitor.post(`/buyer/offers/${offerA}/accept`, {
    _csrf: hidden(page.html),
  });
  assert.equal(again.status, 409);

  const declined = await visitor.post(`/buyer/offers/${offerB}/decline`, {
    _csrf: hidden(page.html),
    reason: "Not now",
  });
  assert.equal(declined.url, "/buyer/offers?done=declined");
  const after = textOf(declined.html);
  assert.match(after, /Your reason Not now/);
  assert.doesNotMatch(declined.html, /\/accept"/, "no open offer is left");
  const statement = await folio.request("/api/marketplace/statement", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.deepEqual(
    (await json<Body>(statement)).lines.map((l: Body) => l.amountUsdCents),
    [15_500],
    "only the accepted offer is billed",
  );
});
