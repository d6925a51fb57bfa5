/**
 * What the landing path promises is true (issue 29 item 9): with agent payments off no page tells
 * a crawler to pay (retrying with a price changes nothing), and BLOCKED withholds an article from
 * AI agents only: a person in a browser reads it on the publisher's site.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { testFolio } from "./helpers.ts";
import { bodySample, BROWSER, demoPath, GPTBOT, visit } from "./landing_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";

Deno.test("payments off: a crawler on a paywalled page is not told to pay, and paying changes nothing", async () => {
  await using folio = await testFolio();
  const paywall = await demoPath(folio, "PAYWALL");
  await patchDemo(folio, (p) => ({ ...p, agentPayments: { ...p.agentPayments, enabled: false } }));
  const first = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("crawler-price"), null);
  const html = await first.text();
  assert.ok(!html.includes("crawler-exact-price"), "no pay-per-crawl instructions");
  assert.match(html, /does not take payment on this site/);
  assert.ok(!html.includes(await bodySample(folio, paywall.id)), "the teaser only");

  // A credentialed retry with a price is not charged and gets the same teaser.
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Crawler Co",
    email: "crawler@example.test",
  }, { now: folio.clock.now() });
  const paid = await visit(folio, paywall.path, {
    "user-agent": GPTBOT,
    authorization: `Bearer ${apiKey}`,
    "crawler-max-price": "USD 5",
  });
  assert.equal(paid.status, 200);
  assert.equal(paid.headers.get("crawler-charged"), null);
  assert.ok(!(await paid.text()).includes("crawler-exact-price"));
  const charges = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(charges.rows[0].n), 0);

  // With payments on, the same page does quote and explain the retry.
  await patchDemo(folio, (p) => ({ ...p, agentPayments: { ...p.agentPayments, enabled: true } }));
  const on = await visit(folio, paywall.path, { "user-agent": GPTBOT });
  assert.equal(on.status, 402);
  assert.match(await on.text(), /crawler-exact-price/);
});

Deno.test("BLOCKED: a person reads the article; crawlers and identified agents are refused", async () => {
  await using folio = await testFolio();
  const observe = await demoPath(folio, "OBSERVE");
  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
    args: [observe.id],
  });
  const sample = await bodySample(folio, observe.id);
  const person = await visit(folio, observe.path, { "user-agent": BROWSER });
  assert.equal(person.status, 200);
  assert.ok((await person.text()).includes(sample), "the whole article");

  const bot = await visit(folio, observe.path, { "user-agent": GPTBOT });
  assert.equal(bot.status, 403);
  assert.equal(bot.headers.get("crawler-error"), "CrawlerForbidden");
  assert.ok(!(await bot.text()).includes(sample));

  // A buyer key names an agent, whatever its User-Agent says.
  const { apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Agent Co",
    email: "agent@example.test",
  }, { now: folio.clock.now() });
  const agent = await visit(folio, observe.path, { authorization: `Bearer ${apiKey}` });
  assert.equal(agent.status, 403);
  assert.ok(!(await agent.text()).includes(sample));
});
