/**
 * The operator console in Debian's Chromium (issue 38 part 1): the first sign-in (password,
 * enrolment with the QR code, recovery codes shown once), every section at 1280 and 375 px with
 * no serious or critical axe violation and no horizontal scroll, a key made and revoked, the
 * audit log filtered, sign-out, and the second sign-in with a code and with a recovery code.
 * Screenshots go to FOLIO_SCREENSHOTS when it is set.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { browserTest, checkPage, pageText, submitForm, visitPage } from "./browser.ts";
import { codeAt, makeOperator, OPERATOR_PASSWORD } from "./operator_helpers.ts";
import type { TestFolio } from "./helpers.ts";

const SECTIONS = [
  ["/operator", "desk"],
  ["/operator/invoices", "invoices"],
  ["/operator/disputes", "disputes"],
  ["/operator/suspensions", "suspensions"],
  ["/operator/payouts", "payouts"],
  ["/operator/audit", "audit"],
  ["/operator/account", "account"],
] as const;

async function noSideScroll(page: Page, what: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `${what} is ${wide}px wide at 375px`);
}

async function passwordStep(page: Page, base: string, email: string) {
  await page.goto(`${base}/operator`, { waitUntil: "load" });
  assert.match(new URL(page.url()).pathname, /^\/operator\/login$/);
  await checkPage(page, "operator-login");
  return await submitForm(page, "form[action='/operator/login']", {
    email,
    password: OPERATOR_PASSWORD,
  });
}

/** Signs a new operator in for the first time; returns the secret and the recovery codes. */
async function firstSignIn(folio: TestFolio, page: Page, base: string) {
  const op = await makeOperator(folio, "ops@example.test");
  assert.equal(await passwordStep(page, base, op.email), 200);
  assert.equal(new URL(page.url()).pathname, "/operator/enrol");
  await checkPage(page, "operator-enrol");
  assert.ok(await page.$(".qr svg"), "the QR code is drawn");
  const secret = await page.$eval(".copy code.secret", (el) => el.textContent ?? "");
  assert.match(secret, /^[A-Z2-7]{32}$/);
  // A wrong code first: refused beside the same secret.
  assert.equal(await submitForm(page, "form[action='/operator/enrol']", { code: "000000" }), 401);
  assert.match(await pageText(page), /The code is incorrect or used/);
  assert.equal(await page.$eval(".copy code.secret", (el) => el.textContent), secret);
  assert.equal(
    await submitForm(page, "form[action='/operator/enrol']", { code: codeAt(folio, secret) }),
    200,
  );
  assert.equal(new URL(page.url()).pathname, "/operator/recovery-codes");
  await checkPage(page, "operator-recovery-codes");
  const codes = await page.$$eval("ol.codes code", (els) => els.map((e) => e.textContent ?? ""));
  assert.equal(codes.length, 10);
  // A reload shows them no more, and makes none.
  await page.reload({ waitUntil: "load" });
  assert.match(await pageText(page), /Already shown/);
  assert.equal(await page.$("ol.codes"), null);
  return { op, secret, codes };
}

browserTest(
  "the operator's first sign-in, every section at 1280 and 375 px, keys and the audit log",
  async ({ folio, page, base }) => {
    await firstSignIn(folio, page, base);
    for (const [path, shot] of SECTIONS) {
      await visitPage(page, `${base}${path}`, `operator-${shot}`);
    }

    // A key, shown once, then revoked.
    await visitPage(page, `${base}/operator/account`, "operator-account");
    assert.equal(
      await submitForm(page, "form[action='/operator/account/keys']", { name: "month end" }),
      200,
    );
    await checkPage(page, "operator-key-once");
    const apiKey = await page.$eval(".key-once code.secret", (el) => el.textContent ?? "");
    assert.match(apiKey, /^opk_/);
    const who = await folio.request("/api/operator/session", {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    assert.equal(who.status, 200);
    await who.body?.cancel();
    await visitPage(page, `${base}/operator/account`, "operator-account-key");
    assert.equal(await submitForm(page, "form[action$='/revoke']"), 200);
    assert.match(await pageText(page), /The key is revoked/);

    // The audit log shows what happened, filtered by action.
    await visitPage(page, `${base}/operator/audit?action=operator_key.`, "operator-audit-filtered");
    const text = await pageText(page);
    assert.match(text, /operator_key\.revoked/);
    assert.match(text, /operator_key\.created/);
    assert.doesNotMatch(text, /operator\.signed_in/);
    assert.match(text, /revokedAt/, "the change is shown field by field");
    await page.goto(`${base}/operator/audit?from=2026-13-01`, { waitUntil: "load" });
    assert.match(await pageText(page), /From: must be/);

    await page.setViewport({ width: 375, height: 800 });
    for (const [path, shot] of SECTIONS) {
      await visitPage(page, `${base}${path}`, `operator-${shot}-375`);
      await noSideScroll(page, path);
    }

    // Sign out: the pages send the visitor back to sign in.
    await page.goto(`${base}/operator`, { waitUntil: "load" });
    assert.equal(await submitForm(page, "header form[action='/operator/logout']"), 200);
    assert.match(await pageText(page), /You are signed out/);
    await page.goto(`${base}/operator/audit`, { waitUntil: "load" });
    assert.equal(new URL(page.url()).pathname, "/operator/login");
  },
);

browserTest(
  "the second sign-in takes a code once, or a recovery code once",
  async ({ folio, page, base }) => {
    const { op, secret, codes } = await firstSignIn(folio, page, base);
    await page.deleteCookie(...(await page.cookies()));
    folio.clock.advance(30_000);

    assert.equal(await passwordStep(page, base, op.email), 200);
    assert.equal(new URL(page.url()).pathname, "/operator/login/code");
    await checkPage(page, "operator-second-factor");
    const code = codeAt(folio, secret);
    assert.equal(await submitForm(page, "form[action='/operator/login/code']", { code }), 200);
    assert.equal(new URL(page.url()).pathname, "/operator");

    // The same code again, in a fresh sign-in: refused.
    await page.deleteCookie(...(await page.cookies()));
    await page.setViewport({ width: 375, height: 800 });
    assert.equal(await passwordStep(page, base, op.email), 200);
    await noSideScroll(page, "the code page");
    assert.equal(await submitForm(page, "form[action='/operator/login/code']", { code }), 401);
    assert.match(await pageText(page), /The code is incorrect or used/);
    await checkPage(page, "operator-second-factor-refused-375");

    // A recovery code instead.
    await page.click("details summary");
    assert.equal(
      await submitForm(page, "form[aria-label='Sign in with a recovery code']", {
        recoveryCode: codes[0],
      }),
      200,
    );
    assert.equal(new URL(page.url()).pathname, "/operator");
    assert.match(await pageText(page), /9\s+of your recovery codes left/);
  },
);
