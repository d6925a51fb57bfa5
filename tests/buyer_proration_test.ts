/**
 * The publisher page says what subscribing bills now and after, before the click (issue 42): the
 * monthly fee prorated to the second over the rest of the UTC month, by the subscribe API's rule,
 * so the page's figure is what POST /api/marketplace/licenses bills at that instant.
 */
import assert from "node:assert/strict";
import { formatUsd } from "../server/platform/money.ts";
import { startFakeStripe } from "./billing_fake_stripe.ts";
import { hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { apiSignup, portalSignUp } from "./buyer_helpers.ts";

const PAGE = "/buyer/catalog/pub_demo";

/** The "What each choice bills now" table: [uses in words, now, then monthly] per row. */
function nowTable(html: string): Map<string, { now: string; monthly: string }> {
  const table = html.slice(html.indexOf("What each choice bills now"));
  const rows = table.slice(0, table.indexOf("</table>"))
    .matchAll(
      /<th scope="row">([^<]+)<\/th><td class="num">([^<]+)<\/td><td class="num">([^<]+)</g,
    );
  return new Map([...rows].map((m) => [m[1], { now: m[2], monthly: m[3] }]));
}

const BUNDLES: [string, string[]][] = [
  ["summaries", ["summarization"]],
  ["full display", ["display"]],
  ["summaries and full display", ["summarization", "display"]],
  ["RAG retrieval", ["rag"]],
  ["summaries and RAG retrieval", ["summarization", "rag"]],
  ["full display and RAG retrieval", ["display", "rag"]],
  ["summaries, full display and RAG retrieval", ["summarization", "display", "rag"]],
];

Deno.test("every bundle's first charge on the page is what subscribing bills at that instant", async () => {
  await using folio = await testFolio();
  // An instant whose proration does not come out round: 16 days 11:25:03.211 left of November.
  folio.clock.set("2026-11-14T12:34:56.789Z");
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get(PAGE);
  assert.equal(page.status, 200);
  const table = nowTable(page.html);
  assert.equal(table.size, 7);
  const said = textOf(page.html);
  assert.match(
    said,
    /You are billed the share of the bundle you tick now for the rest of this month, counted from when this page was shown \(14 Nov 2026, 12:34\): that is the amount billed if you subscribe within the hour/,
  );
  assert.match(said, /Then the monthly fee on the 1st of each month from 1 Dec 2026/);

  for (const [words, useCases] of BUNDLES) {
    const shown = table.get(words);
    assert.ok(shown, words);
    const { apiKey } = await apiSignup(folio, { email: `${useCases.join("-")}@acme.test` });
    const res = await folio.request("/api/marketplace/licenses", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ publisherId: "pub_demo", useCases }),
    });
    const bought = await res.json();
    assert.equal(res.status, 201, JSON.stringify(bought));
    assert.equal(shown.now, formatUsd(bought.firstChargeUsdCents), `${words} billed now`);
    assert.equal(shown.monthly, formatUsd(bought.monthlyFeeUsdCents), `${words} monthly`);
    assert.ok(bought.firstChargeUsdCents < bought.monthlyFeeUsdCents, "a part month");
  }
});

Deno.test("the sentence names the ticked bundle's figure, and the figure falls as the month runs", async () => {
  await using folio = await testFolio();
  folio.clock.set("2026-11-16T00:00:00Z");
  const { visitor } = await portalSignUp(folio);
  const first = await visitor.get(PAGE);
  const early = nowTable(first.html).get("full display")!.now;
  // Half of November's 30 days left: half the $100.00 display bundle.
  assert.equal(early, "$50.00");
  assert.match(first.html, /data-first-charges="[^"]*&quot;display&quot;:&quot;\$50\.00&quot;/);

  // A refused form (here a quote from another month) comes back with the ticks, and the sentence
  // gives that bundle's figure as of now.
  const refused = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: hidden(first.html),
    useCases: "display",
    quotedAt: "2026-10-16T00:00:00.000Z",
  });
  assert.equal(refused.status, 400);
  assert.match(
    textOf(refused.html),
    /You are billed \$50\.00 now for the rest of this month, .* Then \$100\.00 on the 1st of each month from 1 Dec 2026/,
  );

  // Subscribing from the page then bills that figure: the licenses page and the statement agree.
  const page = await visitor.get(PAGE);
  const bought = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: hidden(page.html),
    useCases: "display",
  });
  assert.equal(bought.url, "/buyer/licenses?done=licensed");
  const statement = await visitor.get("/buyer/statements");
  assert.match(textOf(statement.html), /\$50\.00/);

  folio.clock.set("2026-11-30T23:59:59.500Z");
  const { visitor: later } = await portalSignUp(folio);
  const late = await later.get(PAGE);
  assert.equal(nowTable(late.html).get("full display")!.now, "$0.00", "the started second is free");
});

Deno.test("with card payments the page says checkout charges the whole month", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get(PAGE);
  assert.match(
    textOf(page.html),
    /At checkout your card is charged the monthly fee for this month in full/,
  );
  assert.doesNotMatch(page.html, /data-first-charges|What each choice bills now/);
});
