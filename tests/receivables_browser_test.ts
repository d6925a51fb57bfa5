/**
 * Receivables pages in Chromium (issue 38) at 1280 and 375 px, with axe-core: the buyer's
 * invoices and balance, the operator's Invoices list and detail (recording a payment through its
 * form, a refused void), and Suspensions (suspending by hand, the buyer's notice, lifting).
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { runBillingCron } from "../server/domain/billing/close.ts";
import { receivablesSettings } from "../server/domain/billing/invoice_terms.ts";
import { browserTest, pageText as text, submitForm, visitPage } from "./browser.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { browserSignUp } from "./buyer_helpers.ts";
import { signedInOperator } from "./operator_helpers.ts";

/** Visits `url` at 1280 and 375 px: axe clean both times, no sideways scroll on the phone. */
async function bothWidths(page: Page, url: string, shot: string): Promise<void> {
  await page.setViewport({ width: 1280, height: 900 });
  await visitPage(page, url, `${shot}-1280`);
  await page.setViewport({ width: 375, height: 800 });
  await visitPage(page, url, `${shot}-375`);
  const wide = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.ok(wide <= 0, `${shot} scrolls sideways by ${wide} px at 375`);
  await page.setViewport({ width: 1280, height: 900 });
}

browserTest("invoices and suspensions: the buyer's view and the operator's console", async ({
  folio,
  page,
  base,
}) => {
  folio.clock.set("2026-11-10T10:00:00Z");
  const apiKey = await browserSignUp(page, base, "receivables-signup");
  const [a, b] = await paywalled(folio, 2);
  for (let i = 0; i < 30; i++) assert.equal((await read(folio, apiKey, i % 2 ? a : b)).status, 200);
  folio.clock.set("2026-12-01T00:30:00Z");
  await runBillingCron(folio.deps.store.db, {
    holder: "t",
    now: folio.clock.now(),
    ttlMs: 1,
    receivables: receivablesSettings(folio.deps.config),
  });

  // A month later the portal session has ended: sign in again with the key.
  await page.goto(`${base}/buyer/login`);
  await submitForm(page, "form[action='/buyer/login/key']", { apiKey });
  await bothWidths(page, `${base}/buyer/statements`, "buyer-invoices");
  assert.match(await text(page), /Invoices and balance/);
  assert.match(await text(page), /FOLIO-\d{6}\s+November 2026\s+Open\s+31 Dec 2026/);
  const number = /FOLIO-\d{6}/.exec(await text(page))![0];
  await bothWidths(page, `${base}/buyer/statements/2026-11/invoice`, "buyer-invoice-open");
  assert.match(await text(page), /Status\s+Open/);

  // The operator, signed in with both steps; its session cookie in the browser.
  const op = await signedInOperator(folio);
  const [name, value] = op.cookie.split("=");
  await page.setCookie({ name, value, url: base });
  await bothWidths(page, `${base}/operator/invoices`, "operator-invoices");
  assert.match(await text(page), new RegExp(`${number}\\s+Acme AI\\s+November 2026\\s+Open`));
  await bothWidths(page, `${base}/operator/invoices?state=paid`, "operator-invoices-empty");
  assert.match(await text(page), /No invoice matches these filters/);

  await bothWidths(page, `${base}/operator/invoices/${number}`, "operator-invoice");
  assert.equal(
    await submitForm(page, `form[action$='/payments']`, { amount: "0.10", reference: "SEPA 1" }),
    200,
  );
  assert.match(await text(page), /Payment recorded/);
  assert.match(await text(page), /Partly paid/);
  assert.match(await text(page), /Bank transfer\s+SEPA 1\s+\$0\.10/);
  await bothWidths(page, page.url(), "operator-invoice-partly-paid");
  assert.equal(await submitForm(page, `form[action$='/void']`, { reason: "wrong" }), 409);
  assert.match(await text(page), /cannot be voided/);
  assert.equal(
    await submitForm(page, `form[action$='/payments']`, { amount: "-3" }),
    400,
  );
  assert.match(await text(page), /Amount/);

  await bothWidths(page, `${base}/operator/suspensions`, "operator-suspensions-empty");
  assert.match(await text(page), /No suspensions/);
  const buyerId = /buy_[0-9a-z]+/.exec(
    await (await folio.request("/api/marketplace/invoices", {
      headers: { authorization: `Bearer ${apiKey}` },
    })).text(),
  )?.[0];
  assert.ok(buyerId);
  assert.equal(
    await submitForm(page, "form[action='/operator/suspensions']", {
      buyerId,
      reason: "Card chargeback under review",
    }),
    200,
  );
  assert.match(await text(page), /Buyer suspended/);
  await bothWidths(page, `${base}/operator/suspensions`, "operator-suspensions");
  assert.match(await text(page), /By hand: Card chargeback under review/);
  assert.equal((await read(folio, apiKey, a)).status, 402);

  // The buyer sees why.
  await page.deleteCookie({ name, url: base });
  await bothWidths(page, `${base}/buyer/statements`, "buyer-invoices-suspended");
  assert.match(await text(page), /Priced reads are suspended by the operator/);

  await page.setCookie({ name, value, url: base });
  await page.goto(`${base}/operator/suspensions`);
  assert.equal(
    await submitForm(page, `form[action='/operator/suspensions/${buyerId}/lift']`, {
      reason: "Resolved",
    }),
    200,
  );
  assert.match(await text(page), /Suspension lifted/);
  assert.equal((await read(folio, apiKey, a)).status, 200);
});
