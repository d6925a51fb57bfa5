/**
 * "Forgot password?" in Chromium (docs/decisions/email.md): the buyer portal's pages with a real
 * server whose own mail worker sends the link to a real SMTP server; each page axe-clean at
 * 1280 px and at 375 px without sideways scrolling; and the console's page with email off.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  browserAvailable,
  checkPage,
  launchBrowser,
  openPage,
  pageText,
  submitForm,
  visitPage,
} from "./browser.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { smtpMissing, startSmtpSink } from "./fixtures/smtp.ts";
import { startTestFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";

const ready = browserAvailable() && smtpMissing() === null;

/** Checks the page as it is at 1280 px and at 375 px (no sideways scroll), then back. */
async function bothWidths(page: Page, shot: string) {
  await checkPage(page, shot);
  await page.setViewport({ width: 375, height: 800 });
  await checkPage(page, `${shot}-375`);
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.ok(overflow <= 0, `${shot} at 375px overflows by ${overflow}px`);
  await page.setViewport({ width: 1280, height: 900 });
}

Deno.test({
  name: "buyer portal in Chromium: forgot password, the emailed link, a new password, sign in",
  ignore: !ready,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await startTestFolio({ env: { FOLIO_SMTP_URL: sink.url } });
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.setViewport({ width: 1280, height: 900 });
    await apiSignup(folio, { email: "reader@acme.test", password: PASSWORD });

    await visitPage(page, `${folio.url}/buyer/login`, "reset-login");
    await Promise.all([page.waitForNavigation(), page.click("a[href='/buyer/forgot']")]);
    await bothWidths(page, "reset-forgot");
    assert.equal(
      await submitForm(page, "form[action='/buyer/forgot']", { email: "reader@acme.test" }),
      200,
    );
    assert.match(await pageText(page), /a link to choose a new password is on its way/);
    await bothWidths(page, "reset-sent");

    // The server's own mail worker sends it.
    const [mail] = await sink.waitFor("reader@acme.test");
    const link = /(http:\/\/localhost:\d+\/buyer\/reset\?token=\S+)/.exec(mail.text!)![1];
    await visitPage(page, link.replace("localhost", "127.0.0.1"), "reset-form");
    await bothWidths(page, "reset-form");
    // Too short a password is stopped by the field itself (minlength), before any request.
    assert.equal(
      await submitForm(page, "form[action='/buyer/reset']", { password: "a brand new passphrase" }),
      200,
    );
    assert.match(await pageText(page), /Your password is changed/);
    await bothWidths(page, "reset-done");
    assert.equal(
      await submitForm(page, "form[action='/buyer/login']", {
        email: "reader@acme.test",
        password: "a brand new passphrase",
      }),
      200,
    );
    assert.equal(new URL(page.url()).pathname, "/buyer");

    // The used link: the page says so and offers a new one.
    const res = await page.goto(link.replace("localhost", "127.0.0.1"), { waitUntil: "load" });
    assert.equal(res?.status(), 200, "the form is shown; the link is checked when it is used");
    assert.equal(
      await submitForm(page, "form[action='/buyer/reset']", { password: "yet another passphrase" }),
      400,
    );
    assert.match(await pageText(page), /This reset link is not valid any more/);
    await bothWidths(page, "reset-spent");
  },
});

Deno.test({
  name: "console in Chromium: with email off, the forgot page says so plainly",
  ignore: !browserAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using folio = await startTestFolio();
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.setViewport({ width: 1280, height: 900 });
    await visitPage(page, `${folio.url}/publisher/forgot`, "reset-off");
    assert.match(await pageText(page), /Email is off on this node/);
    await bothWidths(page, "reset-off");
  },
});
