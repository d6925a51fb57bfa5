/**
 * The Articles page's defaults and bulk change in Debian's Chromium: tick two articles, review,
 * confirm; set the defaults; every page passes axe-core (no serious or critical violation) and
 * fits 375 px. Screenshots go to FOLIO_SCREENSHOTS when it is set.
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, pageText, screenshot, submitForm, visitPage } from "./browser.ts";
import { addDemoLogin, DEMO_EMAIL } from "./console_activity_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";

browserTest(
  "bulk policy and price, and the defaults for new articles",
  async ({ folio, page, base }) => {
    await addDemoLogin(folio);
    await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
    await submitForm(page, "form[action='/publisher/login']", {
      email: DEMO_EMAIL,
      password: PASSWORD,
    });

    await visitPage(page, `${base}/publisher/articles?policy=OBSERVE`, "articles-bulk");
    const boxes = await page.$$("input[name=ids]");
    assert.ok(boxes.length > 2);
    await boxes[0].click();
    await boxes[1].click();
    assert.equal(await submitForm(page, "form#bulk", { policy: "BLOCKED" }), 200);
    await checkPage(page, "articles-bulk-confirm");
    assert.match(await pageText(page), /Change 2 articles\?/);
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("main form button[type=submit]"),
    ]);
    await checkPage(page, "articles-bulk-done");
    assert.match(await pageText(page), /Changed the policy or price of 2 articles\./);

    await page.click("details.defaults summary");
    assert.equal(
      await submitForm(page, "form[action='/publisher/articles/defaults']", {
        policy: "PAYWALL",
        priceUsd: "0.04",
      }),
      200,
    );
    assert.match(await pageText(page), /New articles get: PAYWALL at \$0\.04 per read/);

    await page.setViewport({ width: 375, height: 800 });
    await visitPage(page, `${base}/publisher/articles`, "narrow-articles");
    await screenshot(page, "narrow-articles-top", false);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 375, `the articles page is ${wide}px wide at 375px`);
  },
);
