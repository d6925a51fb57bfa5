/**
 * The console's activity pages in Debian's Chromium: calls, reader intents, earnings, license
 * requests and the passages playground, first empty (a new publisher), then with the demo
 * publisher's activity made through REST, MCP and the marketplace. Each page passes axe-core with
 * no serious or critical violation; screenshots go to FOLIO_SCREENSHOTS when it is set.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { browserTest, checkPage, submitForm, visitPage } from "./browser.ts";
import {
  addDemoLogin,
  DEMO_EMAIL,
  demoArticleIds,
  flushCalls,
  mcpTool,
  restRead,
  signUpBuyer,
} from "./console_activity_helpers.ts";
import type { TestFolio } from "./helpers.ts";
import { PASSWORD, signUp } from "./manage_helpers.ts";

async function signInAs(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
  assert.equal(
    await submitForm(page, "form[action='/publisher/login']", { email, password: PASSWORD }),
    200,
  );
  assert.equal(new URL(page.url()).pathname, "/publisher");
}

/** Calls, intents, charges and license requests on the demo publisher, made as agents make them. */
async function demoActivity(folio: TestFolio): Promise<string> {
  const acme = await signUpBuyer(folio, "Acme AI");
  const lab = await signUpBuyer(folio, "Lab Co");
  const open = await demoArticleIds(folio, "OBSERVE");
  const paid = await demoArticleIds(folio, "PAYWALL");
  const prompts = [
    "are heat pumps worth it in a cold climate?",
    "what do cities do about summer heat?",
    "are heat pumps worth it in a cold climate?",
    "how much does a home battery cost?",
  ];
  for (const [i, prompt] of prompts.entries()) {
    assert.equal(await restRead(folio, open[i], { prompt }), 200);
  }
  for (const id of paid.slice(0, 3)) {
    assert.equal(
      await restRead(folio, id, { prompt: "summarise this", buyerKey: acme.apiKey }),
      200,
    );
  }
  await mcpTool(folio, "search_articles", { query: "energy" }, { bearer: acme.apiKey });
  const sub = await folio.request("/api/marketplace/licenses", {
    method: "POST",
    headers: { authorization: `Bearer ${lab.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["rag"] }),
  });
  assert.equal(sub.status, 201);
  await sub.body?.cancel();
  const asked = await mcpTool(folio, "request_license", {
    use_case: "fine_tuning",
    message: "We would like to fine-tune a support model on your archive, with attribution.",
    contact: "ml@acme.test",
  }, { bearer: acme.apiKey });
  await mcpTool(folio, "request_license", {
    use_case: "display",
    message: "Full text in our reader app, please.",
  }, { bearer: lab.apiKey });
  await flushCalls(folio);
  return (asked.structuredContent as { requestId: string }).requestId;
}

browserTest(
  "the activity pages pass axe-core empty and with data, and their forms work in Chromium",
  async ({ folio, page, base }) => {
    // A new publisher: every page's empty state.
    const { email } = await signUp(folio, { name: "Harbor Gazette" });
    await signInAs(page, base, email);
    for (const name of ["calls", "intents", "earnings", "payouts", "requests", "playground"]) {
      await visitPage(page, base + `/publisher/${name}`, `activity-empty-${name}`);
    }
    await page.deleteCookie(...await page.cookies());

    // The demo publisher, after agents and buyers used it.
    await addDemoLogin(folio);
    const requestId = await demoActivity(folio);
    await signInAs(page, base, DEMO_EMAIL);

    await visitPage(page, base + "/publisher/calls", "activity-calls");
    assert.match(await page.content(), /Calls for this page/, "each read names its page");
    await page.select("#surface", "rest");
    assert.equal(await submitForm(page, "form[action='/publisher/calls']"), 200);
    assert.equal(new URL(page.url()).searchParams.get("surface"), "rest");
    await checkPage(page, "activity-calls-rest");

    await visitPage(page, base + "/publisher/intents", "activity-intents");
    assert.match(await page.content(), /are heat pumps worth it in a cold climate\?/);

    await visitPage(page, base + "/publisher/earnings", "activity-earnings");
    await visitPage(page, base + "/publisher/earnings?days=7", "activity-earnings-7");
    await visitPage(page, base + "/publisher/payouts", "activity-payouts");
    assert.match(await page.content(), /Payout statement/);
    const bad = await page.goto(`${base}/publisher/earnings?days=nope`, { waitUntil: "load" });
    assert.equal(bad?.status(), 400);
    await checkPage(page, "activity-earnings-bad-days");

    await visitPage(page, base + "/publisher/requests", "activity-requests");
    assert.equal(
      await submitForm(page, `form[action='/publisher/requests/${requestId}/approve']`, {
        priceUsd: "250",
        termMonths: "12",
      }),
      200,
    );
    assert.match(await page.content(), /Offer sent/);
    await checkPage(page, "activity-requests-approved");
    await visitPage(page, base + "/publisher/requests", "activity-requests-after");
    const deny = await page.$("form[action$='/deny']");
    assert.ok(deny, "the other request is still pending");
    assert.equal(
      await submitForm(page, "form[action$='/deny']", { reason: "Not for display." }),
      200,
    );
    assert.match(await page.content(), /Request denied/);
    await checkPage(page, "activity-requests-denied");

    await visitPage(page, base + "/publisher/playground", "activity-playground");
  },
);

// Needs POST /api/publisher/playground/passages: fails on a branch without it.
browserTest(
  "the passages playground shows passages in Chromium and passes axe-core",
  async ({ folio, page, base }) => {
    await addDemoLogin(folio);
    await signInAs(page, base, DEMO_EMAIL);
    await visitPage(page, base + "/publisher/playground", "activity-playground-form");
    const status = await submitForm(page, "form[action='/publisher/playground']", {
      query: "heat pumps",
      limit: "3",
    });
    await checkPage(page, "activity-playground-results");
    assert.equal(status, 200);
    assert.match(await page.content(), /<ol class="passages">/);
  },
);
