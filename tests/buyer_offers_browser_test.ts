/**
 * Offers and cancellation in Chromium: the requests and offers page and the cancel confirmation
 * page render, pass axe-core, and their forms work without tricks (issue 29 items 2 and 3).
 */
import assert from "node:assert/strict";
import { browserTest, pageText as text, submitForm, visitPage } from "./browser.ts";
import { browserSignUp } from "./buyer_helpers.ts";

browserTest(
  "a buyer accepts an offer, then cancels the license after reading what happens",
  async ({
    folio,
    page,
    base,
  }) => {
    const apiKey = await browserSignUp(page, base, "buyer-offers-signup");
    const post = async (path: string, key: string, body: unknown) =>
      await (await folio.request(path, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      })).json();
    const { requestId } = await post("/api/marketplace/license-requests", apiKey, {
      publisherId: "pub_demo",
      useCase: "fine_tuning",
      message: "We train a small model",
      maxMonthlyUsdCents: 50_000,
    });
    const { offer } = await post(
      `/api/publisher/license-requests/${requestId}/approve`,
      folio.seeded!.apiKey,
      { monthlyPriceUsdCents: 30_000, note: "Attribution required" },
    );

    await visitPage(page, `${base}/buyer/offers`, "buyer-offers");
    assert.match(await text(page), /Accepting bills \$155\.00 on this month's statement/);
    assert.match(await text(page), /Accept and pay \$155\.00/);
    assert.equal(await submitForm(page, `form[action='/buyer/offers/${offer.id}/accept']`), 200);
    assert.match(await text(page), /Offer accepted/);
    await visitPage(page, `${base}/buyer/offers?done=accepted`, "buyer-offers-accepted");

    await visitPage(page, `${base}/buyer/licenses`, "buyer-licenses-renewing");
    await page.click("a[href$='/cancel']");
    await page.waitForSelector("form input[name=confirm]");
    await visitPage(page, page.url(), "buyer-cancel-confirm");
    assert.match(await text(page), /keeps its uses until 1 Dec 2026, 00:00/);
    assert.match(await text(page), /Not billed: the \$300\.00 due on 1 Dec 2026/);
    assert.equal(await submitForm(page, "form:has(input[name=confirm])"), 200);
    assert.equal(new URL(page.url()).pathname, "/buyer/licenses");
    assert.match(await text(page), /License canceled/);
  },
);
