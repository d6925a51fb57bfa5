/** The buyer portal's usage page: empty, then calls, reads and spend per day and per publisher. */
import assert from "node:assert/strict";
import { textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { alertOf, portalSignUp } from "./buyer_helpers.ts";

Deno.test("usage says what to do when there is none, then charts calls, reads and spend", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const empty = await visitor.get("/buyer/usage");
  assert.equal(empty.status, 200);
  assert.match(textOf(empty.html), /No usage in these 30 days/);
  assert.match(empty.html, /href="\/buyer\/catalog"/);

  for (const id of await paywalled(folio, 2)) {
    assert.equal((await read(folio, apiKey, id)).status, 200);
  }
  await folio.deps.callLog.flush();
  const page = await visitor.get("/buyer/usage?days=7");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /2 calls in the last 7 days/);
  // Both calls fell on one day: the chart's words name that day's 2, not the scale's headroom.
  assert.match(text, /highest: 2 calls/);
  assert.match(text, /2 article reads/);
  assert.match(text, /The Demo Ledger 2 2 2 \$0\.0\d/);
  assert.match(page.html, /aria-label="Calls and article reads per day, 2026-11-08 to 2026-11-15"/);
  assert.match(page.html, /aria-label="Metered spend per day in US cents/);
  assert.match(page.html, /<a href="\/buyer\/usage\?days=7" aria-current="page">/);

  const bad = await visitor.get("/buyer/usage?days=400");
  assert.equal(bad.status, 400);
  assert.equal(alertOf(bad.html), "days: must be a whole number from 1 to 90");
  assert.match(textOf(bad.html), /calls in the last 30 days/, "the default window instead");
});
