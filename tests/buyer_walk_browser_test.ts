/**
 * Issue 12's walk, in Chromium, as a buyer who never saw the API: sign up and copy the key from the
 * page, license the demo publisher, read a PAYWALL article over REST with the key, see the read and
 * its spend on the overview, set a budget that stops the next charged read (answered as the cap
 * answers), cancel the license, and open the month's invoice.
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, pageText as text, submitForm, visitPage } from "./browser.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { browserSignUp } from "./buyer_helpers.ts";

browserTest(
  "a new buyer runs Folio from the browser: sign up, license, a charged read, a budget that stops the next, cancel, the invoice",
  async ({ folio, page, base }) => {
    // Sign up; the key is on the page once, and the visitor is signed in.
    const apiKey = await browserSignUp(page, base, "buyer-walk-1-signup");
    await checkPage(page, "buyer-walk-2-key");
    await Promise.all([page.waitForNavigation(), page.click("a.button[href='/buyer']")]);
    assert.match(await text(page), /Getting started: 1 of 4 done/);

    // License the demo publisher for summaries: its full PAYWALL reads stay per use.
    await visitPage(page, `${base}/buyer/catalog`, "buyer-walk-3-catalog");
    await Promise.all([page.waitForNavigation(), page.click("a[href='/buyer/catalog/pub_demo']")]);
    await page.click("input[name=useCases][value=summarization]");
    assert.equal(await page.$eval("[data-fee-total]", (o) => o.textContent), "$60.00");
    await checkPage(page, "buyer-walk-4-publisher");
    assert.equal(await submitForm(page, "form[action='/buyer/catalog/pub_demo/license']"), 200);
    assert.match(await text(page), /Licensed/);
    assert.match(await text(page), /The Demo Ledger\s+Subscription\s+summaries\s+\$60\.00/);

    // An agent reads a PAYWALL article over REST with the key: a charged display read.
    const [first, second] = await paywalled(folio, 2);
    const charged = await read(folio, apiKey, first, "walk-1");
    assert.equal(charged.status, 200);
    assert.ok(charged.body.article.body, "the full article");
    const cents = Number(charged.headers.get("folio-charged-usd-cents"));
    assert.ok(cents > 0);
    await folio.deps.callLog.flush();

    // The overview shows the read and its spend.
    await visitPage(page, `${base}/buyer`, "buyer-walk-5-overview");
    const overview = await text(page);
    assert.match(overview, /1\s+article reads/);
    const spent = `\\$${(cents / 100).toFixed(2)}`;
    assert.match(overview, new RegExp(`Per-read spend this month: ${spent}`));
    assert.match(overview, /The Demo Ledger/);

    // A budget of what is already spent leaves no room: the next charged read stops, as at the cap.
    await visitPage(page, `${base}/buyer/budgets`, "buyer-walk-6-budgets");
    assert.equal(
      await submitForm(page, "form:has(input[name=publisherId][value=pub_demo])", {
        // The license's fee counts too: 60 USD for the 15.5 of November's 30 days left, 31 USD.
        monthlyUsd: (31 + cents / 100).toFixed(2),
      }),
      200,
    );
    assert.match(await text(page), /Budget saved/);
    assert.match(await text(page), /of your budget of .* \(100%\)/);
    await checkPage(page, "buyer-walk-7-budget-set");
    const stopped = await read(folio, apiKey, second, "walk-2");
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.status, "license_limited", "capped: the summary the license holds");
    assert.match(stopped.body.message, /budget/);
    assert.equal(stopped.body.article.body, undefined);
    assert.equal(stopped.headers.get("folio-charged-usd-cents"), null, "not charged");

    // Cancel the license: it runs to the end of the month.
    await visitPage(page, `${base}/buyer/licenses`, "buyer-walk-8-licenses");
    await Promise.all([page.waitForNavigation(), page.click("a[href$='/cancel']")]);
    assert.match(await text(page), /keeps its uses until 1 Dec 2026, 00:00, then ends/);
    await checkPage(page, "buyer-walk-8b-cancel-confirm");
    assert.equal(await submitForm(page, "form:has(input[name=confirm])"), 200);
    assert.match(await text(page), /active\s+until 1 Dec 2026, 00:00, then ends/);
    await checkPage(page, "buyer-walk-9-canceled");

    // The month's invoice: the license fee and the charged read.
    await visitPage(page, `${base}/buyer/statements`, "buyer-walk-10-statements");
    await Promise.all([
      page.waitForNavigation(),
      page.click("a[href='/buyer/statements/2026-11/invoice']"),
    ]);
    const invoice = await text(page);
    assert.match(invoice, /Draft invoice, November 2026/);
    assert.match(invoice, /Monthly license fee/);
    assert.match(invoice, /Metered reads/);
    assert.match(invoice, /Acme AI/);
    await checkPage(page, "buyer-walk-11-invoice");
  },
);
