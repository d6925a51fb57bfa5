/** A cap or budget refusal states the real figures: the month's spend against the cap (issue 29 item 8). */
import assert from "node:assert/strict";
import { METERED_CAP_MICROS } from "../server/platform/money.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";

Deno.test("a read past the cap names the month's actual spend, not the cap as if reached", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await signup(folio, "cap-words");
  const [id] = await paywalled(folio, 1);
  // 999.99 USD spent: one cent of room, less than the read's price.
  await folio.deps.store.db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
          VALUES (?, 'pub_demo', '2026-11', ?)`,
    args: [buyerId, METERED_CAP_MICROS - 10_000],
  });
  const r = await read(folio, apiKey, id);
  assert.equal(r.body.status, "license_limited");
  assert.match(
    r.body.message,
    /^Your metered spend with The Demo Ledger this month is 999\.99 USD against the 1,000 USD monthly cap, so this 0\.0\d+ USD read would pass it; you hold summary rights only\./,
  );
});

Deno.test("a read past a budget names what is left of it", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio, "budget-words");
  const [a, b] = await paywalled(folio, 2);
  const put = await folio.request("/api/marketplace/budgets", {
    method: "PUT",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ monthlyUsdCents: 3 }),
  });
  await put.body?.cancel();
  assert.equal(put.status, 200);
  assert.equal((await read(folio, apiKey, a)).body.status, undefined, "the first read fits");
  const r = await read(folio, apiKey, b);
  assert.equal(r.body.status, "license_limited");
  assert.match(
    r.body.message,
    /^Your monthly budget does not cover this 0\.0\d+ USD read from The Demo Ledger: 0\.01 USD of it is left this month;/,
  );
});
