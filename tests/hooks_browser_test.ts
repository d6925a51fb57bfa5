/**
 * Issue 34's pages in Chromium: the webhooks pages of both portals, the key-rotation confirmations
 * and the invoice, each axe-clean at desktop width and at 375 px without sideways scrolling; the
 * invoice printed to PDF (page.pdf()) the way "Save as PDF" does.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { closeMonth } from "../server/domain/billing/close.ts";
import { drainDue } from "../server/domain/webhooks/delivery.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { browserSignUp } from "./buyer_helpers.ts";
import { browserTest, checkPage, pageText, submitForm, visitPage } from "./browser.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";

/** Visits `url` at desktop width and at 375 px: axe-clean both times, no sideways scroll. */
async function bothWidths(page: Page, url: string, shot: string) {
  await page.setViewport({ width: 1280, height: 900 });
  await visitPage(page, url, shot);
  await page.setViewport({ width: 375, height: 800 });
  await page.reload({ waitUntil: "load" });
  await checkPage(page, `${shot}-375`);
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.ok(overflow <= 0, `${url} at 375px overflows by ${overflow}px`);
  await page.setViewport({ width: 1280, height: 900 });
}

browserTest(
  "the console's webhooks: empty, an endpoint with a delivery, its attempt, the confirmations",
  async ({ folio, page, base }) => {
    await visitPage(page, `${base}/publisher/login`, "hooks-login");
    assert.equal(
      await submitForm(page, "form[action='/publisher/login']", {
        email: DEMO_CONSOLE_EMAIL,
        password: folio.seeded!.consolePassword,
      }),
      200,
    );
    await bothWidths(page, `${base}/publisher/webhooks`, "hooks-empty");
    assert.match(await pageText(page), /No endpoint yet/);
    await page.click("input[value='license_request.created']");
    assert.equal(
      await submitForm(page, "form[action='/publisher/webhooks/add']", {
        url: "https://hooks.example.com/folio/webhooks/with/a/rather/long/path",
        description: "Editorial desk",
      }),
      200,
    );
    assert.match(await pageText(page), /shown only this once/);
    await checkPage(page, "hooks-secret");
    await Promise.all([page.waitForNavigation(), page.click("a.button")]);
    const endpoint = new URL(page.url()).pathname;
    assert.equal(await submitForm(page, `form[action='${endpoint}/test']`), 200);
    // The name does not resolve here: the attempt is logged as failed and retried.
    await drainDue(folio.deps, { holder: "t", timeoutMs: 2000 });
    await bothWidths(page, `${base}${endpoint}`, "hooks-endpoint");
    assert.match(await pageText(page), /webhook\.test/);
    const delivery = await page.$eval("a[href*='/deliveries/']", (a) => a.getAttribute("href")!);
    await bothWidths(page, `${base}${delivery}`, "hooks-delivery");
    await bothWidths(page, `${base}${endpoint}/rotate`, "hooks-rotate-confirm");
    await bothWidths(page, `${base}${endpoint}/delete`, "hooks-delete-confirm");
    await bothWidths(page, `${base}/publisher/settings/key`, "key-rotate-confirm");
  },
);

browserTest(
  "the buyer's webhooks page, key confirmation and invoice: axe-clean, 375 px, printed to PDF",
  async ({ folio, page, base }) => {
    folio.clock.set(new Date("2026-11-28T10:00:00Z"));
    const apiKey = await browserSignUp(page, base, "hooks-buyer-signup");
    await bothWidths(page, `${base}/buyer/webhooks`, "hooks-buyer-empty");
    await bothWidths(page, `${base}/buyer/keys/rotate`, "hooks-buyer-key-confirm");
    for (const id of await paywalled(folio, 2)) {
      assert.equal((await read(folio, apiKey, id)).status, 200);
    }
    folio.clock.set(new Date("2026-12-02T08:00:00Z"));
    await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
    await visitPage(page, `${base}/buyer/login`, "hooks-buyer-login");
    await submitForm(page, "form[action='/buyer/login']", {
      email: "ml@acme.example",
      password: PASSWORD,
    });
    await bothWidths(page, `${base}/buyer/statements/2026-11/invoice`, "hooks-invoice");
    assert.match(await pageText(page), /Invoice FOLIO-\d{6}/);
    await page.emulateMediaType("print");
    const barShown = await page.$eval(".inv-bar", (el) => getComputedStyle(el).display);
    assert.equal(barShown, "none", "the screen bar is not printed");
    await page.emulateMediaType("screen");
    const pdf = await page.pdf({ format: "A4", printBackground: false });
    assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
    assert.ok(pdf.length > 1000);
    const letter = await page.pdf({ format: "Letter" });
    assert.equal(new TextDecoder().decode(letter.slice(0, 5)), "%PDF-");
  },
);
