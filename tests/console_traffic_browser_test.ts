/**
 * The traffic and calls pages in Debian's Chromium on the demo publisher with its 30 days of
 * history (FOLIO_SEED_HISTORY=1): the chart, its tables, the top articles, the calls' filters
 * (a GET form), paging and the CSV link; empty for a new publisher; at 375 px wide. Each page
 * passes axe-core with no serious or critical violation; screenshots go to FOLIO_SCREENSHOTS
 * (the README's are docs/screenshots/console-traffic.png and console-calls.png).
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { browserTest, checkPage, pageText, screenshot, submitForm, visitPage } from "./browser.ts";
import { addDemoLogin, DEMO_EMAIL } from "./console_activity_helpers.ts";
import { PASSWORD, signUp } from "./manage_helpers.ts";

async function signInAs(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
  assert.equal(
    await submitForm(page, "form[action='/publisher/login']", { email, password: PASSWORD }),
    200,
  );
}

browserTest(
  "traffic and calls with the demo's 30 days of history",
  async ({ folio, page, base }) => {
    await addDemoLogin(folio);
    await signInAs(page, base, DEMO_EMAIL);

    await visitPage(page, `${base}/publisher/traffic`, "traffic-demo");
    const traffic = await pageText(page);
    assert.match(traffic, /Calls per crawler or agent/);
    assert.match(traffic, /GPTBot \(OpenAI\)/);
    assert.match(traffic, /Buyer Northwind Research/);
    assert.match(traffic, /Most read articles, last 30 days/);
    assert.match(traffic, /Top earning articles, last 30 days/);
    assert.equal(await page.$$eval("figure.stacked svg g", (gs) => gs.length >= 30), true);
    await screenshot(page, "console-traffic", false); // the README's
    await page.click("details summary");
    await checkPage(page, "traffic-demo-table");

    // From a caller in the table to its calls, filtered.
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("a[href^='/publisher/calls?agent=crawler%3AGPTBot']"),
    ]);
    await checkPage(page, "calls-gptbot");
    const calls = await pageText(page);
    assert.match(calls, /matching calls/);
    assert.match(calls, /GPTBot/);
    assert.doesNotMatch(calls, /ClaudeBot \(Anthropic\)\s+Mozilla/);

    // The filter form, as a person fills it; then the next page.
    await page.goto(`${base}/publisher/calls`, { waitUntil: "load" });
    assert.equal(
      await submitForm(page, "form[aria-label='Filter calls']", { outcome: "priced" }),
      200,
    );
    assert.match(new URL(page.url()).search, /outcome=priced/);
    assert.match(await pageText(page), /priced 402/);
    await screenshot(page, "console-calls", false); // the README's
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("nav.pager a"),
    ]);
    await checkPage(page, "calls-priced-older");
    assert.match(new URL(page.url()).search, /cursor=/);
    const csv = await page.$eval("a[download]", (a) => (a as HTMLAnchorElement).href);
    assert.match(csv, /\/publisher\/calls\.csv\?outcome=priced$/);

    // The other pages the history fills.
    for (
      const [path, says] of [
        ["/publisher", /See your first agent read/],
        ["/publisher/earnings", /Earnings/],
        ["/publisher/intents", /Most asked in the last 30 days/],
      ] as const
    ) {
      await visitPage(page, `${base}${path}`, `history${path.replaceAll("/", "-")}`);
      assert.match(await pageText(page), says);
    }

    // A phone's width: nothing wider than the screen but the scrolling tables.
    await page.setViewport({ width: 375, height: 800 });
    for (const path of ["/publisher/traffic", "/publisher/calls"]) {
      await visitPage(page, `${base}${path}`, `narrow${path.replaceAll("/", "-")}`);
      await screenshot(page, `narrow-top${path.replaceAll("/", "-")}`, false);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 375, `${path} is ${wide}px wide at 375px`);
    }
  },
  { env: { FOLIO_SEED_HISTORY: "1" } },
);

browserTest(
  "a new publisher's traffic and calls pages say what will show",
  async ({ folio, page, base }) => {
    const { email } = await signUp(folio);
    await signInAs(page, base, email);
    await visitPage(page, `${base}/publisher/traffic`, "traffic-empty");
    assert.match(await pageText(page), /No calls in the last 30 days/);
    assert.match(await pageText(page), /No article was read in this window/);
    await visitPage(page, `${base}/publisher/calls`, "calls-empty");
    assert.match(await pageText(page), /No calls yet/);
  },
);
