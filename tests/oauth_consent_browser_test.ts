/**
 * Issue 42: the OAuth consent page in Chromium with JavaScript off, as a reader meets it: axe
 * clean (every rule) and no sideways scroll at 1280 and 375 px; the buyer signs in with the
 * portal's own sign-in and comes back to the consent, which then names the account that pays;
 * Allow returns to the client with a code, Deny with access_denied, and an answer whose token
 * cookie is gone gets the expired page in words.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { browserTest, checkPage, pageText, screenshot, submitForm } from "./browser.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { authParams, randomPkce, REDIRECT, registerClient, setToggles } from "./oauth_helpers.ts";

async function overflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

/**
 * axe (every rule) and a screenshot of the page as it is: axe runs in the page, so script is
 * turned on for the check alone and the page (a GET) is loaded again under it.
 */
async function check(page: Page, shot: string): Promise<void> {
  await page.setJavaScriptEnabled(true);
  await page.reload({ waitUntil: "load" });
  await checkPage(page, shot);
  await page.setJavaScriptEnabled(false);
  await page.reload({ waitUntil: "load" });
}

/** Clicks `selector` and waits for the page it leads to; its URL. */
async function follow(page: Page, selector: string): Promise<URL> {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(selector)]);
  return new URL(page.url());
}

browserTest(
  "issue 42: the consent page in Chromium without JavaScript: sign in, who pays, Allow and Deny",
  async ({ folio, page, base }) => {
    await page.setJavaScriptEnabled(false);
    // The client's redirect URI is answered in the tab (it is not reachable from here).
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.url().startsWith(REDIRECT)) r.respond({ status: 200, body: "back at the client" });
      else r.continue();
    });
    await setToggles(folio, "pub_demo", { consentScreen: true, subscriptionLinking: true }, {
      primaryColor: "#ff0066",
      font: "Georgia",
    });
    await apiSignup(folio, { name: "Acme AI", email: "ml@acme.example", password: PASSWORD });
    const clientId = await registerClient(folio, {
      client_name: "A rather long self-chosen name for an assistant app that wants your articles",
    });
    const { challenge } = await randomPkce();
    const query = new URLSearchParams(
      authParams(folio, clientId, challenge) as Record<string, string>,
    );
    const consent = `${base}/api/oauth/authorize?${query}`;

    for (const width of [1280, 375]) {
      await page.setViewport({ width, height: 900 });
      assert.equal((await page.goto(consent, { waitUntil: "load" }))?.status(), 200);
      await check(page, `consent-signed-out-${width}`);
      assert.equal(await overflow(page), 0, `the consent page fits ${width} px`);
    }
    const text = await pageText(page);
    assert.match(text, /Unverified name/);
    assert.match(text, /Nobody is billed/);

    // The portal's sign-in, and back to the consent.
    await follow(page, "a[href^='/buyer/login?next=']");
    await check(page, "consent-portal-sign-in");
    await submitForm(page, "form[action='/buyer/login']", {
      email: "ml@acme.example",
      password: PASSWORD,
    });
    assert.equal(new URL(page.url()).pathname, "/api/oauth/authorize");
    const signedIn = await pageText(page);
    assert.match(signedIn, /You are signed in to the buyer account Acme AI/);
    assert.match(signedIn, /budgets apply/);
    assert.equal(await overflow(page), 0, "the signed-in consent fits 375 px");
    await check(page, "consent-signed-in-375");
    await page.setViewport({ width: 1280, height: 900 });
    await screenshot(page, "consent-signed-in-1280");

    // Allow, billed to the account: back at the client with a code and the state.
    await page.click("input[name='accept_terms']");
    const allowed = await follow(page, "button[value='approve']");
    assert.equal(`${allowed.origin}${allowed.pathname}`, REDIRECT);
    assert.ok(allowed.searchParams.get("code"));
    assert.equal(allowed.searchParams.get("state"), "st-123");
    const linked = await folio.deps.store.db.execute({
      sql: "SELECT b.name FROM oauth_clients c JOIN buyers b ON b.id = c.buyer_id WHERE c.id = ?",
      args: [clientId],
    });
    assert.equal(linked.rows[0]?.name, "Acme AI");

    // Deny: back at the client with access_denied and no code.
    await page.goto(consent, { waitUntil: "load" });
    const denied = await follow(page, "button[value='deny']");
    assert.equal(denied.searchParams.get("error"), "access_denied");
    assert.equal(denied.searchParams.get("code"), null);

    // The form's token cookie gone (cleared, or the hour passed): the expired page, in words
    // (script on, for axe: the page has none of its own).
    await page.setJavaScriptEnabled(true);
    await page.goto(consent, { waitUntil: "load" });
    await page.deleteCookie({ name: "folio_oauth_csrf", url: `${base}/api/oauth/authorize` });
    await page.click("input[name='accept_terms']");
    await Promise.all([page.waitForNavigation(), page.click("button[value='approve']")]);
    assert.match(await pageText(page), /This connection request has expired/);
    await checkPage(page, "consent-expired");
    await follow(page, "a[href^='/api/oauth/authorize?']");
    assert.match(await pageText(page), /Connect an app to/);
  },
);
