/**
 * The page walk two browser tests share (issue 42): a buyer and the demo publisher with data on
 * their pages (a license, an offer accepted and one open, a request, a budget, webhook endpoints,
 * reads, a custom domain waiting for its proof), and a walk that follows a portal's links from a
 * start, one page per shape of address. tests/phone_width_browser_test.ts measures each page's
 * width; tests/page_words_browser_test.ts reads each page's words.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { submitForm } from "./browser.ts";
import { browserSignUp } from "./buyer_helpers.ts";
import { demoArticleIds, flushCalls, restRead } from "./console_activity_helpers.ts";
import type { TestFolio } from "./helpers.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";

/** The shape of an address: segments with digits (ids, dates) count as one. */
export function shapeOf(path: string): string {
  return path.split("/").map((s) => /\d/.test(s) ? "*" : s).join("/");
}

const SKIP = /\/(logout|download)\b|\.(csv|xml|json|pdf|txt)$|\/export\b/;

/**
 * Walks the links under `prefix` from `starts`, one page per address shape, calling `visit` on
 * each (false: not a page, so its links are not followed).
 */
export async function walkPortal(
  page: Page,
  base: string,
  starts: string[],
  prefix: string,
  visit: (url: string) => Promise<boolean>,
  limit = 90,
): Promise<void> {
  const shapes = new Set<string>();
  const queue = [...starts];
  while (queue.length && shapes.size < limit) {
    const path = queue.shift()!;
    if (shapes.has(shapeOf(path))) continue;
    shapes.add(shapeOf(path));
    if (!await visit(`${base}${path}`)) continue;
    const links = await page.$$eval(
      "a[href]",
      (as) => as.map((a) => (a as HTMLAnchorElement).href),
    );
    for (const href of links) {
      const url = new URL(href);
      if (url.origin !== base || !url.pathname.startsWith(prefix) || SKIP.test(url.pathname)) {
        continue;
      }
      if (!shapes.has(shapeOf(url.pathname))) queue.push(url.pathname);
    }
  }
}

/** POSTs JSON with a bearer key; the answer's body. */
async function post(folio: TestFolio, path: string, key: string, body: unknown) {
  return await (await folio.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })).json();
}

/**
 * A buyer signed in in `page` (at 1280 px) with a license, an offer accepted and a request still
 * open, a budget and a webhook endpoint, and reads (charged and free, with prompts); its key.
 */
export async function seedBuyer(folio: TestFolio, page: Page, base: string): Promise<string> {
  const apiKey = await browserSignUp(page, base, "walk-buyer-signup");
  await page.goto(`${base}/buyer/catalog/pub_demo`, { waitUntil: "load" });
  await page.click("input[name=useCases][value=summarization]");
  assert.equal(await submitForm(page, "form[action='/buyer/catalog/pub_demo/license']"), 200);
  const { requestId } = await post(folio, "/api/marketplace/license-requests", apiKey, {
    publisherId: "pub_demo",
    useCase: "fine_tuning",
    message: "We train a small model",
    maxMonthlyUsdCents: 50_000,
  });
  const { offer } = await post(
    folio,
    `/api/publisher/license-requests/${requestId}/approve`,
    folio.seeded!.apiKey,
    { monthlyPriceUsdCents: 30_000, note: "Attribution required" },
  );
  const accepted = await post(folio, `/api/marketplace/offers/${offer.id}/accept`, apiKey, {});
  assert.equal(accepted.license?.state, "active", JSON.stringify(accepted));
  const open = await post(folio, "/api/marketplace/license-requests", apiKey, {
    publisherId: "pub_demo",
    useCase: "rag",
    message: "A request still open",
    maxMonthlyUsdCents: 20_000,
  });
  await post(
    folio,
    `/api/publisher/license-requests/${open.requestId}/approve`,
    folio.seeded!.apiKey,
    { monthlyPriceUsdCents: 10_000 },
  );
  await page.goto(`${base}/buyer/budgets`, { waitUntil: "load" });
  await submitForm(page, "form:has(input[name=publisherId][value=pub_demo])", {
    monthlyUsd: "500.00",
  });
  await page.goto(`${base}/buyer/webhooks`, { waitUntil: "load" });
  await page.click("input[name=events]");
  await submitForm(page, "form[action='/buyer/webhooks/add']", {
    url: "https://hooks.example.com/folio/webhooks/with/a/rather/long/path/for/the/buyer",
  });
  // Reads, charged and free, with the readers' prompts: usage, items, intents, earnings.
  const [paid, free] = [
    await demoArticleIds(folio, "PAYWALL"),
    await demoArticleIds(folio, "OBSERVE"),
  ];
  for (const id of paid.slice(0, 2)) {
    assert.equal(await restRead(folio, id, { prompt: "summarise this", buyerKey: apiKey }), 200);
  }
  const prompt = "are heat pumps worth it in a cold climate, and what does a home battery cost?";
  assert.equal(await restRead(folio, free[0], { prompt }), 200);
  await flushCalls(folio);
  return apiKey;
}

/** The demo publisher signed in in `page` (at 1280 px), with a webhook endpoint and a domain. */
export async function seedPublisher(folio: TestFolio, page: Page, base: string): Promise<void> {
  await page.goto(`${base}/publisher/login`, { waitUntil: "load" });
  assert.equal(
    await submitForm(page, "form[action='/publisher/login']", {
      email: DEMO_CONSOLE_EMAIL,
      password: folio.seeded!.consolePassword,
    }),
    200,
  );
  await page.goto(`${base}/publisher/webhooks`, { waitUntil: "load" });
  await page.click("input[name=events]");
  await submitForm(page, "form[action='/publisher/webhooks/add']", {
    url: "https://hooks.example.com/folio/webhooks/with/a/rather/long/path/for/the/publisher",
  });
  // A custom domain waiting for its proof: the TXT record card.
  await page.goto(`${base}/publisher/settings`, { waitUntil: "load" });
  await submitForm(page, "form[action='/publisher/settings/domain']", {
    customDomain: "news.a-rather-long-publisher-domain-name.example.org",
  });
}
