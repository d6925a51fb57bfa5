/** The buyer portal's overview: the checklist, this month's figures, spend against cap and budgets. */
import assert from "node:assert/strict";
import { checklistMarks, escapedStyle, hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";

Deno.test("a new buyer's overview: the checklist, zero figures, no spend yet", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /Getting started: 1 of 4 done/);
  // Done and to-do steps look different, and the stylesheet reaches the browser as written.
  assert.deepEqual(checklistMarks(page.html), [
    ["done", "✓"],
    ["todo", "○"],
    ["todo", "○"],
    ["todo", "○"],
  ]);
  assert.equal(escapedStyle(page.html), false);
  assert.match(
    text,
    /0 calls in November 2026 0 article reads \$0\.00 billed this month so far 0 active licenses/,
  );
  assert.match(text, /No per-read spend in November 2026 yet/);
  assert.match(page.html, /aria-current="page">Overview</);
});

Deno.test("after reads, a license and a budget the overview shows them and the checklist is done", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  for (const id of await paywalled(folio, 2)) {
    assert.equal((await read(folio, apiKey, id)).status, 200);
  }
  await folio.deps.callLog.flush();
  const catalog = await visitor.get("/buyer/catalog/pub_demo");
  await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: hidden(catalog.html),
    useCases: "summarization",
  });
  await visitor.post("/buyer/budgets", {
    _csrf: hidden(catalog.html),
    publisherId: "pub_demo",
    monthlyUsd: "100",
  });
  const page = await visitor.get("/buyer");
  const text = textOf(page.html);
  assert.doesNotMatch(text, /Getting started/, "every step done: the checklist goes");
  assert.match(
    text,
    /2 calls in November 2026 2 article reads \$\d+\.\d\d billed this month so far 1 active licenses .*Per-read spend this month: \$0\.0\d ?,/,
  );
  assert.match(text, /The Demo Ledger \$0\.0\d+ of the cap of \$1,000\.00 \(0%\)/);
  // The budget counts the license's prorated fee (60 USD × 15.5 / 30 days) with the reads.
  assert.match(text, /of your budget of \$100\.00 \(31%\)/);
  assert.match(page.html, /role="img" aria-label="\$31\.0\d+ of your budget of \$100\.00 \(31%\)"/);
  assert.match(page.html, /href="\/buyer\/statements\/2026-11"/);
});
