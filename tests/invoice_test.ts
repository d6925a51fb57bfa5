/**
 * The invoice as a real invoice (issue 34): a closed month is issued with a number from one global
 * sequence, an issue and a due date, the seller from the configuration and the buyer, its lines and
 * totals that add up; the open month is a draft without number; the page prints cleanly.
 */
import assert from "node:assert/strict";
import { closeMonth } from "../server/domain/billing/close.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { bearer } from "./manage_helpers.ts";

const SELLER = {
  FOLIO_SELLER_NAME: "Folio Markets Ltd",
  FOLIO_SELLER_ADDRESS: "1 Harbour Street | Dublin D02 X285 | Ireland",
  FOLIO_SELLER_EMAIL: "billing@folio.example",
  FOLIO_SELLER_TAX_ID: "IE1234567T",
};

Deno.test("a closed month's invoice: number, dates, seller, buyer, lines and totals", async () => {
  await using folio = await testFolio({ env: SELLER });
  folio.clock.set(new Date("2026-11-28T10:00:00Z"));
  const first = await portalSignUp(folio, { name: "Acme AI", email: "ap@acme.test" });
  const second = await portalSignUp(folio, { name: "Beta Labs", email: "ap@beta.test" });
  const [a, b] = await paywalled(folio, 2);
  for (const key of [first.apiKey, second.apiKey]) {
    assert.equal((await read(folio, key, a)).status, 200);
    assert.equal((await read(folio, key, b)).status, 200);
  }

  // While the month is open the invoice is a draft: no number, no dates.
  const draft = textOf((await first.visitor.get("/buyer/statements/2026-11/invoice")).html);
  assert.match(draft, /Invoice number DRAFT/);
  assert.match(draft, /Issue date when the month closes/);
  assert.doesNotMatch(draft, /FOLIO-\d/);

  folio.clock.set(new Date("2026-12-02T08:00:00Z"));
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  const page = await first.visitor.get("/buyer/statements/2026-11/invoice");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  const number = /Invoice number (FOLIO-\d{6})/.exec(text)?.[1];
  assert.ok(number, text);
  assert.match(text, /Issue date 2 Dec 2026 Due date 1 Jan 2027/);
  assert.match(text, /Period November 2026 \(UTC\)/);
  assert.match(
    text,
    /Folio Markets Ltd 1 Harbour Street Dublin D02 X285 Ireland billing@folio\.example Tax ID IE1234567T/,
  );
  assert.match(text, /Bill to Acme AI ap@acme\.test Buyer buy_/);
  assert.match(text, /Metered reads The Demo Ledger 2 \$0\.0\d/);
  // Every printed amount, to the micro-dollar as printed: lines, subtotal, fees and total add up.
  const money = (label: string) => {
    const m = new RegExp(`${label} −?\\$(\\d+\\.\\d+)`).exec(text);
    assert.ok(m, `${label} in ${text}`);
    return Math.round(Number(m[1]) * 1_000_000);
  };
  assert.equal(
    money("Subtotal \\(the lines above\\)") +
      money("Folio platform fee \\(4\\.7% on agent payments\\)"),
    money("Total"),
  );
  assert.match(text, /due within 30 days, by 1 Jan 2027/);

  // The number is the invoice's for good; the other buyer's is the next in the sequence.
  const again = textOf((await first.visitor.get("/buyer/statements/2026-11/invoice")).html);
  assert.ok(again.includes(number));
  const other = textOf((await second.visitor.get("/buyer/statements/2026-11/invoice")).html);
  const otherNumber = /Invoice number (FOLIO-\d{6})/.exec(other)![1];
  assert.equal(Math.abs(Number(otherNumber.slice(6)) - Number(number.slice(6))), 1);
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  assert.ok(
    textOf((await first.visitor.get("/buyer/statements/2026-11/invoice")).html)
      .includes(number),
    "closing again changes nothing",
  );

  // A script with the key gets the same invoice, without the portal's way back.
  const api = await folio.request("/api/marketplace/statement/invoice?month=2026-11", {
    headers: bearer(first.apiKey),
  });
  const apiHtml = await api.text();
  assert.ok(apiHtml.includes(number));
  assert.ok(!apiHtml.includes("Back to the statement"));
  assert.ok(page.html.includes('href="/buyer/statements/2026-11"'));
});

Deno.test("the invoice's print stylesheet drops the screen bar and sets page margins", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/statements/2026-11/invoice");
  assert.equal(page.status, 200);
  assert.match(page.html, /@page\{margin:16mm 14mm\}/);
  assert.match(page.html, /@media print\{[^]*\.inv-bar\{display:none\}/);
  assert.match(textOf(page.html), /Nothing to invoice for this month/);
  assert.match(textOf(page.html), /Invoice number DRAFT/);
  assert.match(textOf(page.html), /Folio/, "the default seller");
});

Deno.test("a bad month is refused", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/statements/2026-13x/invoice");
  assert.notEqual(page.status, 200);
});
