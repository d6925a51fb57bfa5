/**
 * Asking a publisher for a license from the buyer portal (issue 42): the publisher page's request
 * form posts through POST /api/marketplace/license-requests, redirects (303) to Requests & offers,
 * where the request waits for the publisher; refused forms say why beside the field and change
 * nothing.
 */
import assert from "node:assert/strict";
import { hidden, textOf, type Visitor } from "./console_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { alertOf, noticeText, portalSignUp } from "./buyer_helpers.ts";

const PAGE = "/buyer/catalog/pub_demo";
const ACTION = "/buyer/catalog/pub_demo/request";

async function requestsOf(folio: TestFolio, apiKey: string): Promise<unknown[]> {
  const res = await folio.request("/api/marketplace/license-requests", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return (await res.json()).requests;
}

/** The field error beside `name`, or null. */
function fieldError(html: string, name: string): string | null {
  const m = new RegExp(`<p class="problem field-error" id="${name}-error" role="alert">([^<]*)<`)
    .exec(html);
  return m ? textOf(m[1]) : null;
}

async function signedUp(folio: TestFolio): Promise<{ visitor: Visitor; apiKey: string }> {
  const { visitor, apiKey } = await portalSignUp(folio);
  return { visitor, apiKey };
}

Deno.test("the publisher page asks for a license in words, and the request waits on Requests & offers", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await signedUp(folio);
  const page = await visitor.get(PAGE);
  assert.equal(page.status, 200);
  assert.match(page.html, new RegExp(`<form method="post" action="${ACTION}">`));
  assert.match(page.html, /<option value="fine_tuning">fine-tuning<\/option>/);
  assert.doesNotMatch(textOf(page.html), /request_license/, "no API names on the page");

  // The redirect after POST is a 303, so a reload does not send the request again.
  const cookie = [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await folio.request(ACTION, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      _csrf: hidden(page.html),
      useCase: "fine_tuning",
      message: "We train a small summarizer on your archive",
      maxMonthlyUsd: "$1,200.50",
    }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/buyer/offers?done=requested");

  const offers = await visitor.get("/buyer/offers?done=requested");
  assert.match(noticeText(offers.html)!, /^Request sent: it waits for the publisher/);
  const said = textOf(offers.html);
  assert.match(said, /fine-tuning from The Demo Ledger/);
  assert.match(said, /State waiting for the publisher/);
  assert.match(said, /Your message We train a small summarizer on your archive/);
  assert.match(said, /Your maximum \$1,200\.50 a month/);
  const [stored] = await requestsOf(folio, apiKey) as { maxMonthlyUsdCents: number }[];
  assert.equal(stored.maxMonthlyUsdCents, 120_050, "dollars typed become whole cents");

  // The publisher sees it too.
  const theirs = await folio.request("/api/publisher/license-requests", {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  assert.equal((await theirs.json()).requests.length, 1);
});

Deno.test("the amount is optional; the enterprise license is asked for from the same form", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await signedUp(folio);
  const page = await visitor.get(PAGE);
  const done = await visitor.post(ACTION, {
    _csrf: hidden(page.html),
    useCase: "fine_tuning",
    message: "Just the archive, please",
    maxMonthlyUsd: "",
  });
  assert.equal(done.url, "/buyer/offers?done=requested");
  assert.doesNotMatch(textOf(done.html), /Your maximum/);
  const [r] = await requestsOf(folio, apiKey) as { maxMonthlyUsdCents: number | null }[];
  assert.equal(r.maxMonthlyUsdCents, null);

  assert.match(
    page.html,
    /<a href="#request">Ask for it below<\/a>/,
    "the enterprise card links it",
  );
  const enterprise = await visitor.post(ACTION, {
    _csrf: hidden(page.html),
    useCase: "fine_tuning",
    enterprise: "on",
    message: "The whole archive for our assistant",
  });
  assert.equal(enterprise.url, "/buyer/offers?done=requested");
  assert.match(textOf(enterprise.html), /Enterprise license and fine-tuning from The Demo Ledger/);
  const both = await requestsOf(folio, apiKey) as { enterprise: boolean }[];
  assert.deepEqual(both.map((x) => x.enterprise).sort(), [false, true]);
});

Deno.test("a refused request says why beside the field, keeps what was typed and stores nothing", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await signedUp(folio);
  const page = await visitor.get(PAGE);
  const csrf = hidden(page.html);
  const good = { _csrf: csrf, useCase: "fine_tuning", message: "Hello", maxMonthlyUsd: "500" };

  for (const amount of ["lots", "-5", "12abc"]) {
    const bad = await visitor.post(ACTION, { ...good, maxMonthlyUsd: amount });
    assert.equal(bad.status, 400, amount);
    assert.equal(
      fieldError(bad.html, "maxMonthlyUsd"),
      "The most you will pay a month: enter an amount in dollars, e.g. 500",
    );
    assert.match(
      bad.html,
      /aria-invalid="true"[^>]*name="maxMonthlyUsd"|name="maxMonthlyUsd"[^>]*aria-invalid="true"/,
    );
    assert.match(bad.html, />Hello<\/textarea>/, "the message is kept");
  }

  const tooMuch = await visitor.post(ACTION, { ...good, maxMonthlyUsd: "2000000" });
  assert.equal(tooMuch.status, 400);
  assert.equal(
    fieldError(tooMuch.html, "maxMonthlyUsd"),
    "The most you will pay a month: must be at most $1,000,000.00",
  );

  const empty = await visitor.post(ACTION, { ...good, message: "   " });
  assert.equal(empty.status, 400);
  assert.equal(fieldError(empty.html, "message"), "Message: must not be empty");

  const odd = await visitor.post(ACTION, { ...good, useCase: "scraping" });
  assert.equal(odd.status, 400);
  assert.equal(fieldError(odd.html, "useCase"), "Use: pick one of the uses listed");

  const forged = await visitor.post(ACTION, { ...good, _csrf: "" });
  assert.equal(forged.status, 403);
  // The kit's expired-form page (tests/form_expired_test.ts).
  assert.match(alertOf(forged.html) ?? "", /^Nothing was changed/);

  assert.deepEqual(await requestsOf(folio, apiKey), [], "nothing was asked");
});
