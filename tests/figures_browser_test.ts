/**
 * The pages issue 42's figures are on, in Chromium with a month on them (tests/figures_helpers.ts):
 * each at 1280 and 375 px passes axe, is no wider than the screen, and says what its figures count.
 * FOLIO_SCREENSHOTS=dir keeps the screenshots to look at.
 */
import assert from "node:assert/strict";
import { browserSignUp } from "./buyer_helpers.ts";
import { browserTest, checkPage, pageText, submitForm } from "./browser.ts";
import { seedMonth } from "./figures_helpers.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";

const WIDTHS = [1280, 375];

browserTest(
  "the figures' pages at 1280 and 375 px: accessible, no sideways scroll, each figure defined",
  async ({ folio, page, base }) => {
    const apiKey = await browserSignUp(page, base, "figures-buyer-signup");
    await seedMonth(folio, { apiKey });
    const look = async (path: string, shot: string, says: RegExp) => {
      for (const width of WIDTHS) {
        await page.setViewport({ width, height: 900 });
        const res = await page.goto(`${base}${path}`, { waitUntil: "load" });
        assert.equal(res?.status(), 200, path);
        await checkPage(page, `figures-${shot}-${width}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= width, `${path} is ${wide - width} px too wide at ${width} px`);
        assert.match(await pageText(page), says, path);
      }
    };
    await look("/buyer", "buyer-overview", /Billed this month so far: everything on this month/);
    await look("/buyer/statements/2026-11", "buyer-statement", /rounded once to the cent/);
    await look("/buyer/statements/2026-11/invoice", "invoice", /Subtotal \(the lines above\)/);
    await look("/buyer/offers", "buyer-offers", /Accept and pay \$\d+\.\d\d/);
    await look("/buyer/items", "buyer-items", /\$0\.006667/);

    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
    const signedIn = await submitForm(page, "form[action='/publisher/login']", {
      email: DEMO_CONSOLE_EMAIL,
      password: folio.seeded!.consolePassword,
    });
    assert.equal(signedIn, 200);
    await look("/publisher", "overview", /Earned: your prices on this month's statements/);
    await look("/publisher/earnings", "earnings", /accruing: the month is in progress/);
    await look("/publisher/payouts", "payouts", /Net is what you earned/);
    await look("/publisher/traffic", "traffic", /Top earning articles/);
  },
);
