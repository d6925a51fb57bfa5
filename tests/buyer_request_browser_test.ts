/**
 * The publisher page's subscribe preview and license request form in Chromium (issue 42): axe at
 * 1280 and 375 px with no sideways scroll, the first charge following the ticks, and a request
 * sent from the form waiting on Requests & offers.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  browserTest,
  checkPage,
  pageText as text,
  screenshotOf,
  submitForm,
  visitPage,
} from "./browser.ts";
import { browserSignUp } from "./buyer_helpers.ts";

/** How far the page scrolls sideways at the current width (0: it fits). */
async function overflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

browserTest("a buyer reads what subscribing bills now, then asks for fine-tuning", async ({
  folio,
  page,
  base,
}) => {
  folio.clock.set("2026-11-16T00:00:00Z");
  await browserSignUp(page, base, "buyer-request-signup");
  const url = `${base}/buyer/catalog/pub_demo`;
  await visitPage(page, url, "buyer-publisher-1280");
  assert.equal(await overflow(page), 0, "the publisher page fits 1280 px");

  // The script shows the ticked bundle's figure now and monthly, from the amounts the page wrote.
  await page.click("input[name=useCases][value=display]");
  assert.equal(await page.$eval("[data-first-charge]", (o) => o.textContent), "$50.00");
  assert.equal(await page.$eval("[data-fee-then]", (o) => o.textContent), "$100.00");
  await page.click("input[name=useCases][value=display]");
  assert.equal(
    await page.$eval("[data-first-charge]", (o) => o.textContent),
    "the share of the bundle you tick",
  );

  await page.setViewport({ width: 375, height: 800 });
  await visitPage(page, url, "buyer-publisher-375");
  assert.equal(await overflow(page), 0, "the publisher page fits 375 px");
  await page.$eval("details", (d) => (d as HTMLDetailsElement).open = true);
  await checkPage(page, "buyer-publisher-375-bundles");
  assert.equal(await overflow(page), 0, "the bundles table fits 375 px");
  await screenshotOf(page, "#license", "buyer-publisher-license-375");
  await screenshotOf(page, "#request", "buyer-publisher-request-375");

  const status = await submitForm(page, "form[action$='/request']", {
    useCase: "fine_tuning",
    message: "We fine-tune a small model on your archive",
    maxMonthlyUsd: "400",
  });
  assert.equal(status, 200);
  assert.equal(new URL(page.url()).pathname, "/buyer/offers");
  await checkPage(page, "buyer-request-sent-375");
  assert.equal(await overflow(page), 0, "Requests & offers fits 375 px");
  const said = await text(page);
  assert.match(said, /Request sent: it waits for the publisher/);
  assert.match(said, /waiting for the publisher/);
  assert.match(said, /\$400\.00 a month/);

  await page.setViewport({ width: 1280, height: 900 });
  await visitPage(page, `${base}/buyer/offers`, "buyer-request-sent-1280");
  assert.equal(await overflow(page), 0);
});
