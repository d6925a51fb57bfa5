/**
 * The buyer portal in Debian's Chromium: a buyer signs up, and every portal page renders, submits
 * its main form and passes axe-core with no serious or critical violation. Screenshots go to
 * FOLIO_SCREENSHOTS when it is set (the README's are docs/screenshots/buyer-*.png).
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, pageText as text, submitForm, visitPage } from "./browser.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { apiSignup, browserSignUp } from "./buyer_helpers.ts";

browserTest(
  "a buyer signs up and uses every buyer portal page in Chromium",
  async ({ folio, page, base }) => {
    const apiKey = await browserSignUp(page, base, "buyer-signup");
    assert.equal(
      await page.$eval(".copy-button", (b) => (b as HTMLButtonElement).hidden),
      false,
      "the copy button shows with JavaScript",
    );
    await checkPage(page, "buyer-welcome");

    // Some activity for the pages to show: charged reads over REST with the key.
    for (const id of await paywalled(folio, 3)) {
      assert.equal((await read(folio, apiKey, id)).status, 200);
    }
    await folio.deps.callLog.flush();

    await visitPage(page, `${base}/buyer/catalog`, "buyer-catalog");
    assert.equal(
      await submitForm(page, "form[action='/buyer/catalog']", { q: "ledger", right: "display" }),
      200,
    );
    assert.match(await text(page), /The Demo Ledger/);
    await checkPage(page, "buyer-catalog-filtered");

    await visitPage(page, `${base}/buyer/catalog/pub_demo`, "buyer-publisher");
    await page.click("input[name=useCases][value=display]");
    await page.click("input[name=useCases][value=rag]");
    assert.equal(await page.$eval("[data-fee-total]", (o) => o.textContent), "$125.00");
    assert.equal(
      await submitForm(page, "form[action='/buyer/catalog/pub_demo/license']"),
      200,
    );
    assert.equal(new URL(page.url()).pathname, "/buyer/licenses");
    assert.match(await text(page), /Licensed/);
    await checkPage(page, "buyer-licenses");

    await visitPage(page, `${base}/buyer/budgets`, "buyer-budgets-empty");
    assert.equal(
      await submitForm(page, "form:has(#budget-overall)", { monthlyUsd: "25" }),
      200,
    );
    assert.match(await text(page), /Budget saved/);
    assert.equal(
      await submitForm(page, "form:has(input[name=publisherId][value=pub_demo])", {
        monthlyUsd: "0.10",
      }),
      200,
    );
    await checkPage(page, "buyer-budgets");

    await visitPage(page, `${base}/buyer`, "buyer-overview");
    assert.match(await text(page), /of the cap of \$1,000\.00/);

    await visitPage(page, `${base}/buyer/usage?days=7`, "buyer-usage");
    assert.match(await text(page), /3\s+article reads/);

    await visitPage(page, `${base}/buyer/statements`, "buyer-statements");
    await visitPage(page, `${base}/buyer/statements/2026-11`, "buyer-statement");
    assert.match(await text(page), /Metered reads/);
    await visitPage(page, `${base}/buyer/statements/2026-11/invoice`, "buyer-invoice");
    await visitPage(page, `${base}/buyer/items`, "buyer-items");
    assert.match(await text(page), /items? match/);
    await visitPage(page, `${base}/buyer/items?surface=mcp`, "buyer-items-empty");
    assert.match(await text(page), /No charges match these filters/);

    await visitPage(page, `${base}/buyer/keys`, "buyer-keys");
    assert.equal(
      await submitForm(page, "form[action='/buyer/keys/password']", {
        currentPassword: PASSWORD,
        password: "a brand new password",
      }),
      200,
    );
    assert.match(await text(page), /Password saved/);
    await visitPage(page, `${base}/buyer/keys/rotate`, "buyer-keys-rotate-confirm");
    assert.match(await text(page), /stops working immediately/);
    assert.equal(await submitForm(page, "form[action='/buyer/keys/rotate']"), 200);
    assert.match(await text(page), /Your new API key/);
    await checkPage(page, "buyer-keys-rotated");

    await visitPage(page, `${base}/buyer/licenses`, "buyer-licenses-active");
    await Promise.all([page.waitForNavigation(), page.click("a[href$='/cancel']")]);
    assert.match(await text(page), /What happens if you cancel/);
    await checkPage(page, "buyer-licenses-cancel-confirm");
    assert.equal(await submitForm(page, "form:has(input[name=confirm])"), 200);
    assert.match(await text(page), /then ends/);
    await checkPage(page, "buyer-licenses-canceled");

    assert.equal(await submitForm(page, "form[action='/buyer/logout']"), 200);
    assert.match(await text(page), /You are signed out/);
  },
);

browserTest(
  "the buyer sign-in page passes axe-core and signs in with the key",
  async ({ folio, page, base }) => {
    const { apiKey } = await apiSignup(folio, { password: PASSWORD });
    await visitPage(page, `${base}/buyer/login?next=/buyer/usage`, "buyer-login");
    assert.equal(await submitForm(page, "form[action='/buyer/login/key']", { apiKey }), 200);
    assert.equal(new URL(page.url()).pathname, "/buyer/usage");
    await checkPage(page, "buyer-usage-empty");
  },
);
