/**
 * Payouts and the desk in Chromium with axe at 1280 and 375 px (issue 38 parts 5 and 6): the
 * publisher says where to be paid (a bad IBAN refused beside its field), the operator approves a
 * batch, downloads its file and marks it paid from the pages, the publisher sees the date and the
 * reference; the desk shows the month. No page scrolls sideways at 375 px.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { closeMonth } from "../server/domain/billing/close.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { browserTest, checkPage, pageText, submitForm, visitPage } from "./browser.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { signedInOperator } from "./operator_helpers.ts";
import { IBAN, payInvoices } from "./payout_helpers.ts";

/** The page at 1280 and 375 px: axe clean, screenshots, and nothing wider than the phone. */
async function bothWidths(page: Page, shot: string) {
  await checkPage(page, `${shot}-1280`);
  await page.setViewport({ width: 375, height: 800 });
  await page.reload({ waitUntil: "load" });
  await checkPage(page, `${shot}-375`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `${shot} scrolls sideways at 375 px (${wide} px)`);
  await page.setViewport({ width: 1280, height: 900 });
}

browserTest(
  "payee details, the operator's payout run and the desk, in the browser",
  async ({ folio, page, base }) => {
    const buyer = await signup(folio, "pages");
    for (const id of await paywalled(folio, 3)) {
      assert.equal((await read(folio, buyer.apiKey, id)).status, 200);
    }
    folio.clock.set(new Date("2026-12-01T01:00:00Z"));
    await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
    await payInvoices(folio, "2026-11");

    // The publisher: payouts held until it says where to be paid.
    await visitPage(page, `${base}/publisher/login`, "payouts-login");
    await submitForm(page, "form[action='/publisher/login']", {
      email: DEMO_CONSOLE_EMAIL,
      password: folio.seeded!.consolePassword,
    });
    await visitPage(page, `${base}/publisher/payouts?month=2026-11`, "publisher-payouts-held");
    assert.match(await pageText(page), /until then your payouts are held/);
    assert.match(await pageText(page), /Held: The publisher has not said where to pay/);
    await visitPage(page, `${base}/publisher/payouts/payee`, "payee-empty");
    const form = "form[action='/publisher/payouts/payee']";
    const values = {
      legalName: "Demo Media GmbH",
      country: "DE",
      currency: "EUR",
      iban: "DE89 3704 0044 0532 0130 01",
    };
    assert.equal(await submitForm(page, form, values), 400);
    assert.match(await pageText(page), /IBAN: is not a valid IBAN/);
    assert.equal(
      await page.$eval("#iban", (el) => el.getAttribute("aria-invalid")),
      "true",
    );
    await bothWidths(page, "payee-refused");
    assert.equal(await submitForm(page, form, { ...values, iban: IBAN }), 200);
    const saved = await pageText(page);
    assert.match(saved, /IBAN •••• 3000/);
    assert.ok(!saved.includes("0532 0130"), "the IBAN is shown masked");
    await bothWidths(page, "payee-saved");

    // The operator: the desk, the payouts, a batch approved and paid from the pages.
    const op = await signedInOperator(folio);
    const [name, value] = op.cookie.split("=");
    await page.setCookie({ name, value, url: base });
    await visitPage(page, `${base}/operator?month=2026-11`, "desk");
    assert.match(await pageText(page), /Desk: November 2026/);
    await bothWidths(page, "desk");
    await visitPage(page, `${base}/operator/payouts?month=2026-11&state=due`, "operator-payouts");
    assert.match(await pageText(page), /IBAN •••• 3000 \(DE, EUR\)/);
    await bothWidths(page, "operator-payouts-due");
    assert.equal(
      await submitForm(page, "form[action='/operator/payouts/batches']", { month: "2026-11" }),
      200,
    );
    assert.match(await pageText(page), /Batch approved/);
    const file = await page.$eval("a[href$='.csv'][download]", (a) => a.getAttribute("href"));
    const csv = await page.evaluate(async (href) => await (await fetch(href!)).text(), file);
    assert.match(csv, /DE89370400440532013000/);
    const paidForm = "form[action$='/paid']";
    await page.$eval(
      `${paidForm} [name=paidOn]`,
      (el) => (el as HTMLInputElement).value = "2026-12-03",
    );
    assert.equal(await submitForm(page, paidForm, { reference: "SEPA-77" }), 200);
    assert.match(await pageText(page), /Marked paid/);
    await bothWidths(page, "operator-payouts-paid");

    // The publisher sees it paid, with the date and the reference.
    await page.deleteCookie({ name, url: base });
    await visitPage(page, `${base}/publisher/payouts?month=2026-11`, "publisher-payouts-paid");
    const text = await pageText(page);
    assert.match(text, /Paid/);
    assert.match(text, /SEPA-77/);
    await bothWidths(page, "publisher-payouts-paid");
  },
  { env: { FOLIO_PAYEE_KEY_SECRET: "browser" } },
);
