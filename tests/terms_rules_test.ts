/** The public terms page states the default prices and, plainly, every rule that changes them. */
import assert from "node:assert/strict";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";

async function termsText(folio: TestFolio): Promise<string> {
  const res = await folio.request("/license/pub_demo");
  assert.equal(res.status, 200);
  return (await res.text())
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

async function addRule(folio: TestFolio, rule: Record<string, unknown>): Promise<void> {
  const res = await sendJson(
    folio,
    "POST",
    "/api/publisher/rules",
    rule,
    bearer(folio.seeded!.apiKey),
  );
  assert.equal(res.status, 201, JSON.stringify(await json(res)));
}

Deno.test("the terms page states the default prices and lists no rules when there are none", async () => {
  await using folio = await testFolio();
  const text = await termsText(folio);
  assert.match(text, /By default: summary \$0\.001 · full display \$0\.02 · RAG \$0\.005 per read/);
  assert.match(text, /capped at \$1,000\.00 per publisher per month/);
  assert.match(text, /plus a 4\.7% platform fee/);
  assert.match(
    text,
    /Base access \$50\.00, plus summarization \$10\.00, display \$50\.00, RAG \$25\.00\./,
  );
  assert.match(text, /An article may carry its own full-display price, which takes precedence/);
  assert.doesNotMatch(text, /Content rules/);
});

Deno.test("the terms page lists the rules that change policies and prices, plainly and in order", async () => {
  await using folio = await testFolio();
  await addRule(folio, {
    name: "Premium",
    priority: 20,
    match: { path: "/premium/" },
    action: { policy: "PAYWALL", priceUsdCents: 5 },
  });
  await addRule(folio, {
    priority: 10,
    match: { publishedWithinHours: 48 },
    action: { policy: "BLOCKED" },
  });
  await addRule(folio, {
    name: "Launch sale",
    priority: 30,
    match: { path: "/20*/opinion/*" },
    action: {
      priceUsdCents: 0.5,
      window: { start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z" },
    },
  });
  await addRule(folio, {
    name: "Last month's sale",
    priority: 31,
    action: {
      priceUsdCents: 1,
      window: { start: "2026-10-01T00:00:00Z", end: "2026-11-01T00:00:00Z" },
    },
  });
  await addRule(folio, {
    name: "<script>alert(1)</script>",
    priority: 40,
    match: { territories: ["DE", "AT"] },
    action: { deny: true },
  });
  await addRule(folio, {
    priority: 50,
    match: { path: "/free/", territories: ["FR"] },
    action: { policy: "OBSERVE" },
  });
  const text = await termsText(folio);
  const start = text.indexOf("Content rules");
  assert.ok(start > 0, text);
  const rules = text.slice(start);
  const expected = [
    "Articles published less than 48 hours ago: not available to AI agents.",
    "Articles under /premium/: paywalled at $0.05 per read (rule 'Premium').",
    "Articles matching /20*/opinion/*: $0.005 per read where paywalled, from 1 Nov 2026, 00:00 until 1 Dec 2026, 00:00 UTC (rule 'Launch sale').",
    "For readers in DE, AT: not available (rule '<script>alert(1)</script>').",
    "Articles under /free/, for readers in FR: free to read.",
  ];
  let at = 0;
  for (const sentence of expected) {
    const i = rules.indexOf(sentence, at);
    assert.ok(i >= 0, `${sentence} in order in ${rules}`);
    at = i + sentence.length;
  }
  assert.doesNotMatch(rules, /Last month's sale/, "a price whose window is over changes nothing");
  // The rule name is text, never markup.
  const raw = await (await folio.request("/license/pub_demo")).text();
  assert.doesNotMatch(raw, /<script>alert/);
});
