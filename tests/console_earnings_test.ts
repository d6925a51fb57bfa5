/** The console's earnings page: per month and per day, payouts, the window switcher, isolation. */
import assert from "node:assert/strict";
import { closeMonth } from "../server/domain/billing/close.ts";
import { formatUsd as usd } from "../server/platform/money.ts";
import { consoleSignUp, textOf } from "./console_helpers.ts";
import {
  DEMO_EMAIL,
  demoArticleIds,
  demoVisitor,
  restRead,
  signIn,
  signUpBuyer,
} from "./console_activity_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";

interface Month {
  month: string;
  meteredUsdCents: number;
  subscriptionUsdCents: number;
  earningsUsdCents: number;
  chargedReads: number;
}

async function demoEarnings(folio: TestFolio): Promise<Month[]> {
  const res = await folio.request("/api/publisher/earnings?months=12", {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  return (await json<{ months: Month[] }>(res)).months;
}

Deno.test("a new publisher's earnings page explains how it is paid and that nothing is earned yet", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/earnings");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /How you are paid You keep your own price/);
  assert.match(text, /4\.7% platform fee; that fee is recorded apart/);
  assert.match(text, /No earnings yet/);
  assert.match(text, /Per day, last 30 days/);
  assert.match(page.html, /href="\/publisher\/earnings\?days=30" aria-current="page"/);
  assert.doesNotMatch(page.html, /<table/);
});

Deno.test("earnings per month and per day, with the payout once the month closes", async () => {
  await using folio = await testFolio();
  let visitor = await demoVisitor(folio);
  const { apiKey } = await signUpBuyer(folio, "Acme AI");
  const paid = await demoArticleIds(folio, "PAYWALL");
  for (const id of paid.slice(0, 2)) {
    assert.equal(await restRead(folio, id, { prompt: "pay me", buyerKey: apiKey }), 200);
  }
  const sub = await folio.request("/api/marketplace/licenses", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["rag"] }),
  });
  assert.equal(sub.status, 201, await sub.text());
  const [month] = await demoEarnings(folio);
  assert.equal(month.month, "2026-11");
  assert.equal(month.chargedReads, 2);
  assert.ok(month.meteredUsdCents > 0 && month.subscriptionUsdCents > 0);

  const page = await visitor.get("/publisher/earnings");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(
    text,
    new RegExp(`${escape(usd(month.earningsUsdCents))} earned in November 2026 so far`),
  );
  assert.match(text, /2 charged reads this month/);
  assert.match(
    page.html,
    /aria-label="Earnings per month in US dollars by kind, December 2025 to November 2026"/,
  );
  assert.match(page.html, /aria-label="Earnings per day in US dollars, 2026-10-17 to 2026-11-15"/);
  assert.match(
    text,
    new RegExp(
      `November 2026 ${escape(usd(month.meteredUsdCents))} \\$0\\.00 ${
        escape(usd(month.subscriptionUsdCents))
      } ${escape(usd(month.earningsUsdCents))} \\$0\\.00 2 ${
        escape(usd(month.earningsUsdCents))
      } accruing: the month is in progress`,
    ),
  );

  const week = await visitor.get("/publisher/earnings?days=7");
  assert.match(textOf(week.html), /Per day, last 7 days/);
  assert.match(week.html, /href="\/publisher\/earnings\?days=7" aria-current="page"/);
  assert.match(week.html, /2026-11-09 to 2026-11-15/);

  // The month closes: its payout is computed and shown as pending.
  folio.clock.set("2026-12-01T00:10:00Z");
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  visitor = await signIn(folio, DEMO_EMAIL); // the first session has expired by now
  const closed = textOf((await visitor.get("/publisher/earnings")).html);
  assert.match(
    closed,
    new RegExp(`${escape(usd(month.earningsUsdCents))} pending: the month is over`),
  );
  assert.match(
    closed,
    /payout for November 2026: pending: the month is over, due and not paid yet/,
  );

  const other = await consoleSignUp(folio);
  const theirs = textOf((await other.visitor.get("/publisher/earnings")).html);
  assert.match(theirs, /No earnings yet/);
  assert.doesNotMatch(theirs, /November 2026 \$/);
});

Deno.test("a window the API refuses is shown as a problem beside the default window, not a 500", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  for (const days of ["abc", "91", "0", "%3Cscript%3E"]) {
    const page = await visitor.get(`/publisher/earnings?days=${days}`);
    assert.equal(page.status, 400, days);
    assert.match(page.html, /role="alert">days: must be a whole number from 1 to 90/);
    assert.match(textOf(page.html), /Per day, last 30 days/);
    assert.doesNotMatch(page.html, /<script>/);
  }
});

function escape(s: string): string {
  return s.replace(/[$.]/g, "\\$&");
}
