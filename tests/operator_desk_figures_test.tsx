/**
 * The operator's desk prints its figures by the one rounding rule (issue 42, docs/decisions/
 * billing.md "One rounding rule"): billed is publishers' prices + platform fees as printed,
 * collected is its parts as printed, and months are in words. Half-cent amounts are chosen so
 * that rounding each figure on its own would not add up.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { DeskPage, type DeskView } from "../ui/operator/desk.tsx";
import { OperatorPayoutsPage, type PayoutList } from "../ui/operator/payouts.tsx";
import { textOf } from "./console_helpers.ts";

const WHO = {
  operatorId: "op_1",
  email: "op@folio.test",
  name: "Op",
  via: "session" as const,
  csrfToken: "t",
  expiresAt: null,
  recoveryCodesLeft: 10,
};

function month(name: string, state: "open" | "closed"): DeskView["month"] {
  return {
    month: name,
    state,
    // 100.5¢ of prices + 0.5¢ of fees: $1.01 + $0.01 on their own, $1.01 billed.
    billedUsdMicros: 1_010_000,
    publishersPricesUsdMicros: 1_005_000,
    platformFeesUsdMicros: 5_000,
    // 0.5¢ by card + 0.5¢ on invoices + 0.5¢ untracked = 1.5¢: $0.01 three times against $0.02.
    collectedUsdMicros: 15_000,
    collectedByCardUsdMicros: 5_000,
    collectedOnInvoicesUsdMicros: 5_000,
    collectedUntrackedUsdMicros: 5_000,
    creditAppliedUsdMicros: 0,
    outstandingUsdMicros: 995_000,
    overdueUsdMicros: 0,
    voidUsdMicros: 0,
    uncollectibleUsdMicros: 0,
    creditedUsdMicros: 0,
    invoices: 1,
    creditNotes: 0,
    payouts: 1,
    payoutsEarnedUsdMicros: 1_005_000,
    payoutsDueNowUsdMicros: 0,
    payoutsHeld: 0,
    payoutsApprovedUsdMicros: 0,
    payoutsPaidUsdMicros: 0,
  };
}

const cents = (printed: string) => Math.round(Number(printed.replace(/[$,]/g, "")) * 100);

Deno.test("the desk's billed and collected add up as printed, with months in words", () => {
  const desk: DeskView = {
    month: month("2026-11", "closed"),
    history: [month("2026-10", "closed"), month("2026-11", "closed")],
    links: {
      invoices: "/operator/invoices",
      disputes: "/operator/disputes",
      suspensions: "/operator/suspensions",
      payouts: "/operator/payouts",
    },
  };
  const html = renderToString(
    <DeskPage
      who={WHO}
      operators={1}
      activeKeys={0}
      latest={[]}
      desk={desk}
      previous="2026-10"
      next="2026-12"
    />,
  );
  const text = textOf(html);
  const billed = /Billed (\$[\d.,]+) publishers' prices \+ (\$[\d.,]+) platform fees/.exec(text);
  assert.ok(billed, text);
  assert.match(text, /\$1\.01 billed/);
  assert.equal(cents(billed[1]) + cents(billed[2]), 101, billed[0]);
  assert.match(text, /\$0\.00 platform fees \(4\.7%\)/, "the grid's fees are the printed fees");
  const got = /Collected (\$[\d.]+) by card, (\$[\d.]+) on invoices, (\$[\d.]+) from before/.exec(
    text,
  );
  assert.ok(got, text);
  assert.match(text, /\$0\.02 collected/);
  assert.equal(got.slice(1).reduce((t, p) => t + cents(p), 0), 2, got[0]);
  // Months in words, in the heading, the month nav, the table and the charts' ticks and titles.
  assert.match(text, /November 2026 \(closed\)/);
  assert.match(html, /<a href="\/operator\?month=2026-10">October 2026<\/a>/);
  assert.match(html, /<title>November 2026: Collected/);
  assert.doesNotMatch(text, /\b20\d\d-\d\d\b(?!-\d)/);
});

Deno.test("the payouts list adds what it pays to the total it shows", () => {
  const payout = (id: string, cents: number) => ({
    id,
    publisherId: `pub_${id}`,
    publisherName: `Publisher ${id}`,
    month: "2026-11",
    state: "due" as const,
    earnedUsdMicros: cents * 10_000 + 5_000,
    amountUsdMicros: cents * 10_000,
    holds: [],
    reviewHold: null,
    batchId: null,
    payee: null,
    paidAt: null,
    reference: null,
  });
  const list: PayoutList = {
    payouts: [payout("a", 101), payout("b", 202)],
    total: 2,
    limit: 50,
    offset: 0,
  };
  const html = renderToString(
    <OperatorPayoutsPage
      who={WHO}
      list={list}
      batches={{ batches: [] }}
      filter={{ month: "", state: "", publisherId: "" }}
      batchMonth="2026-11"
    />,
  );
  const text = textOf(html);
  assert.match(text, /Paid or due on this page \(2 payouts\) \$3\.03/);
  assert.match(text, /Publisher a November 2026 Due \$1\.02 \$1\.01/);
  assert.doesNotMatch(text, /\b20\d\d-\d\d\b(?!-\d)/);
});
