/** Statements in the buyer portal: the months, one month, the invoice and the downloads. */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { closeMonth } from "../server/domain/billing/close.ts";
import { textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";

Deno.test("a new buyer's statements list the current month with nothing billed", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/statements");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /Nothing billed yet/);
  assert.match(text, /November 2026 open \(month in progress\) \$0\.00/);
  const month = await visitor.get("/buyer/statements/2026-11");
  assert.match(textOf(month.html), /Nothing on this statement/);
});

Deno.test("statements: months with charges, a closed month's lines and totals, its invoice, CSV and JSON", async () => {
  await using folio = await testFolio();
  folio.clock.set(new Date("2026-11-28T10:00:00Z")); // sessions last 7 days: the close is within
  const { visitor, apiKey } = await portalSignUp(folio, { name: 'Acme, "AI" =Labs' });
  for (const id of await paywalled(folio, 2)) {
    assert.equal((await read(folio, apiKey, id)).status, 200);
  }
  folio.clock.set(new Date("2026-12-02T08:00:00Z"));
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });

  const list = await visitor.get("/buyer/statements");
  const text = textOf(list.html);
  assert.match(text, /December 2026 open \(month in progress\) \$0\.00/);
  assert.match(text, /November 2026 closed \$0\.0\d/);
  assert.match(list.html, /href="\/buyer\/statements\/2026-11\.csv" download/);

  const month = await visitor.get("/buyer/statements/2026-11");
  assert.equal(month.status, 200);
  const mtext = textOf(month.html);
  assert.match(mtext, /Closed 2 Dec 2026, 08:00: this statement no longer changes/);
  assert.match(mtext, /The Demo Ledger Metered reads 2/);

  const invoice = await visitor.get("/buyer/statements/2026-11/invoice");
  assert.equal(invoice.status, 200);
  assert.match(invoice.html, /<h1>Invoice FOLIO-\d{6}<\/h1>/);
  assert.ok(textOf(invoice.html).includes('Acme, "AI" =Labs'), "the buyer, escaped as text");
  // The API's invoice policy, stricter than the portal's: no script, no form.
  const csp = invoice.headers.get("content-security-policy")!;
  assert.match(csp, /^default-src 'none'; img-src 'self'; form-action 'none';/);
  assert.doesNotMatch(csp, /script-src/);
  assert.equal(invoice.headers.get("x-frame-options"), "DENY");

  const csv = await visitor.get("/buyer/statements/2026-11.csv");
  assert.equal(csv.status, 200);
  assert.equal(
    csv.headers.get("content-disposition"),
    'attachment; filename="folio-statement-2026-11.csv"',
  );
  assert.match(csv.headers.get("content-type")!, /^text\/csv; charset=utf-8/);
  const rows: string[][] = parse(csv.html);
  assert.deepEqual(rows[0], [
    "month",
    "publisher",
    "kind",
    "description",
    "quantity",
    "price_usd_micros",
    "fee_usd_micros",
    "amount_usd_micros",
  ]);
  assert.deepEqual(rows[1].slice(0, 5), [
    "2026-11",
    "The Demo Ledger",
    "metered",
    "Metered reads",
    "2",
  ]);
  assert.equal(rows.at(-1)![2], "total");
  assert.ok(csv.html.endsWith("\r\n"));

  const json = await visitor.get("/buyer/statements/2026-11.json");
  assert.equal(
    json.headers.get("content-disposition"),
    'attachment; filename="folio-statement-2026-11.json"',
  );
  const body = JSON.parse(json.html);
  assert.equal(body.month, "2026-11");
  assert.equal(body.state, "closed");
  // The Total row is the sum of the lines, in the same unit; it names the total as invoiced.
  const lines = rows.slice(1, -1);
  assert.equal(Number(rows.at(-1)![7]), lines.reduce((t, r) => t + Number(r[7]), 0));
  assert.equal(Number(rows.at(-1)![7]), body.totalUsdMicros);
  assert.match(
    rows.at(-1)![3],
    new RegExp(`invoiced as ${(body.totalUsdCents / 100).toFixed(2)} USD`),
  );

  const bad = await visitor.get("/buyer/statements/2026-13");
  assert.equal(bad.status, 400);
  assert.match(textOf(bad.html), /month: must be a month written YYYY-MM/);
});
