/** Budgets in the buyer portal: set, change and remove them; a budget then stops charged reads. */
import assert from "node:assert/strict";
import { hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { alertOf, noticeText, portalSignUp } from "./buyer_helpers.ts";

Deno.test("the overall budget: set, shown, removed; bad amounts are refused with the API's words", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/budgets");
  assert.equal(page.status, 200);
  assert.match(textOf(page.html), /No per-read spend in November 2026 yet/);
  assert.match(textOf(page.html), /No publisher has a budget or spend this month/);
  const csrf = hidden(page.html);

  const set = await visitor.post("/buyer/budgets", { _csrf: csrf, monthlyUsd: "50" });
  assert.equal(set.url, "/buyer/budgets?done=saved");
  assert.equal(noticeText(set.html), "Budget saved: it applies to the next read.");
  assert.match(set.html, /id="budget-overall" name="monthlyUsd"[^>]*value="50.00"/);
  assert.match(
    textOf(set.html),
    /All publishers \$0\.00 of your overall budget of \$50\.00 \(0%\)/,
  );

  for (
    const [typed, words] of [
      ["lots", "Monthly budget (USD): enter an amount in dollars, such as 50 or 49.99"],
      ["-5", "Monthly budget (USD): must be at least $0.00"],
    ] as const
  ) {
    // The field's label and plain words, never the API's input name (issue 34).
    const bad = await visitor.post("/buyer/budgets", { _csrf: csrf, monthlyUsd: typed });
    assert.equal(bad.status, 400, typed);
    assert.equal(alertOf(bad.html), words);
    assert.match(
      bad.html,
      /aria-invalid="true" aria-describedby="budget-overall-error budget-hint"/,
    );
    assert.match(bad.html, /id="budget-overall-error" role="alert"/);
    assert.match(bad.html, new RegExp(`value="${typed}"`), "what was typed stays");
  }
  const forged = await visitor.post("/buyer/budgets", { _csrf: "nope", monthlyUsd: "1" });
  assert.equal(forged.status, 403);

  const removed = await visitor.post("/buyer/budgets", {
    _csrf: csrf,
    monthlyUsd: "50.00",
    action: "remove",
  });
  assert.equal(removed.url, "/buyer/budgets?done=removed");
  assert.doesNotMatch(removed.html, /id="budget-overall" name="monthlyUsd"[^>]*value="\d/);
});

Deno.test("a publisher budget set from the portal stops the next charged read the way the cap does", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const [id] = await paywalled(folio);
  const first = await read(folio, apiKey, id, "b1");
  assert.ok(first.body.article.body);
  const spent = Number(first.headers.get("folio-charged-usd-cents"));

  const page = await visitor.get("/buyer/budgets");
  // The publisher it spent with has its own row and form; the others are in the add form.
  assert.match(page.html, /<input type="hidden" name="publisherId" value="pub_demo"\/>/);
  assert.doesNotMatch(page.html, /<option value="pub_demo"/);
  // A budget of what was already spent: no room for another charged read.
  const set = await visitor.post("/buyer/budgets", {
    _csrf: hidden(page.html),
    publisherId: "pub_demo",
    monthlyUsd: (spent / 100).toFixed(2),
  });
  assert.equal(set.url, "/buyer/budgets?done=saved");
  const text = textOf(set.html);
  assert.match(text, /The Demo Ledger .* of the cap of \$1,000\.00/);
  assert.match(text, /of your budget of \$0\.0\d \(100%\)/);

  const stopped = await read(folio, apiKey, id, "b2");
  assert.equal(stopped.status, 200);
  assert.equal(stopped.body.status, "license_limited");
  assert.match(stopped.body.message, /budget/);
  assert.equal(stopped.headers.get("folio-charged-usd-cents"), null);

  const removed = await visitor.post("/buyer/budgets", {
    _csrf: hidden(page.html),
    publisherId: "pub_demo",
    monthlyUsd: "",
  });
  assert.equal(removed.url, "/buyer/budgets?done=removed");
  assert.ok((await read(folio, apiKey, id, "b3")).body.article.body, "reads go through again");

  const unknown = await visitor.post("/buyer/budgets", {
    _csrf: hidden(page.html),
    publisherId: "pub_nope",
    monthlyUsd: "5",
  });
  assert.equal(unknown.status, 404);
  assert.equal(alertOf(unknown.html), "Publisher was not found");
});
