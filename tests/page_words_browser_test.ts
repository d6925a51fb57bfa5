/**
 * Pages speak to the reader (issue 42, docs/decisions/pages.md "Words and local dates"): every page
 * of the publisher console, the buyer portal and the operator console, walked with data on it,
 * shows no ISO-8601 timestamp, no billing month as the API writes it ("2026-11"), no API operation
 * (`PUT /api/…`), no internal tool name
 * (`_landing:article`), no key Folio made itself (`sub:lic_…`) and none of the API's codes for uses,
 * surfaces, item kinds and license kinds as they are. Times are in the browser's zone (told to the
 * server by the portal's script) or, without JavaScript, in UTC, and the page says which. A budget
 * refusal reads as words with a link to the Budgets page.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { browserTest, pageText, screenshot, submitForm } from "./browser.ts";
import { signedInOperator } from "./operator_helpers.ts";
import { seedBuyer, seedPublisher, walkPortal } from "./page_walk.ts";
import { SURFACES, USE_CASES } from "../store/vocabulary.ts";
import { timeInWords } from "../server/platform/local_time.ts";

/** Codes a cell may not hold as its whole text (or as a comma list of them). */
const BARE_CODES = [
  ...SURFACES,
  "marketplace",
  ...USE_CASES,
  // Item kinds and license kinds (server/surfaces/marketplace/schemas.ts).
  "metered",
  "subscription",
  "adjustment",
  "enterprise",
  "request",
];
/** Codes no text may hold anywhere: the snake_case ones. */
const SNAKE_CODES = USE_CASES.filter((u) => u.includes("_"));

/** What a page shows that is the API's or the store's words rather than a reader's. */
async function apiWordsOn(page: Page): Promise<string[]> {
  return await page.evaluate(
    (bare: string[], snake: string[]) => {
      // Snippets to paste (connection configs, curl) and notes for developers are code on purpose.
      const pres = [...document.querySelectorAll("pre, .dev")] as HTMLElement[];
      pres.forEach((p) => p.style.display = "none");
      const text = document.body.innerText;
      const found: string[] = [];
      const all = (re: RegExp, what: string) => {
        for (const m of text.matchAll(re)) found.push(`${what}: ${m[0]}`);
      };
      all(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}\S*/g, "ISO timestamp");
      all(/\b(?:GET|POST|PUT|PATCH|DELETE) \/api\/\S*/g, "API operation");
      // A billing month as the API writes it ("2026-11"); a day ("2026-11-15") is not one.
      all(/\b20\d\d-\d\d\b(?!-\d)/g, "billing month");
      all(/\b20\d\d-\d\d-\d\d\b(?!T)/g, "ISO date");
      all(/\brequest_license\b/g, "tool name");
      all(/(?:^|[\s(])_[a-z]+:[\w.…]*/g, "tool name");
      all(/\b(?:sub|operator):[A-Za-z0-9_:.-]+/g, "Folio's own key");
      for (const m of text.matchAll(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g)) {
        if (snake.includes(m[0])) found.push(`code: ${m[0]}`);
      }
      const cells = document.querySelectorAll("td, th, dd, li, option, span, b, label, h2, h3");
      for (const el of cells as NodeListOf<HTMLElement>) {
        const words = el.innerText.trim();
        if (words && words.split(/,\s*/).every((w) => bare.includes(w))) {
          found.push(`code in <${el.tagName.toLowerCase()}>: ${words}`);
        }
      }
      pres.forEach((p) => p.style.display = "");
      return found;
    },
    BARE_CODES,
    SNAKE_CODES,
  );
}

browserTest(
  "console, buyer portal and operator pages show words and local dates, not the API's codes",
  async ({ folio, page, base }) => {
    const bad: string[] = [];
    let seen = 0;
    const shots = new Set<string>();
    const read = async (url: string) => {
      const res = await page.goto(url, { waitUntil: "load" });
      if (!res?.headers()["content-type"]?.startsWith("text/html")) return false;
      seen++;
      for (const found of await apiWordsOn(page)) bad.push(`${new URL(url).pathname}: ${found}`);
      const shot = `words${new URL(url).pathname.replace(/[^a-z0-9]+/gi, "-")}`;
      if (!shots.has(shot)) {
        shots.add(shot);
        await screenshot(page, shot);
      }
      return true;
    };

    // The browser is in New York: its zone reaches the server on the first portal page.
    await page.emulateTimezone("America/New_York");
    await seedBuyer(folio, page, base);
    await walkPortal(page, base, ["/buyer"], "/buyer", read);

    await page.goto(`${base}/buyer/licenses`, { waitUntil: "load" });
    const times = await page.$$eval(
      "main time[data-when=time]",
      (els) => els.map((e) => [e.getAttribute("datetime")!, e.textContent!]),
    );
    assert.ok(times.length > 0, "the licenses page shows times");
    for (const [iso, words] of times) {
      assert.equal(words, timeInWords(iso, "America/New_York"), `${iso} in New York`);
    }
    assert.match(await pageText(page), /Times are in America\/New York time\./);
    assert.match(await pageText(page), /Billing months run from midnight UTC on the 1st/);

    // Without JavaScript and without the cookie, the same page is in UTC, and says so.
    const cookies = await page.cookies(base);
    await page.deleteCookie(...cookies.filter((c) => c.name === "folio_tz"));
    await page.setJavaScriptEnabled(false);
    await page.goto(`${base}/buyer/licenses`, { waitUntil: "load" });
    assert.match(await pageText(page), /Times are in UTC\./);
    const utc = await page.$eval("main time[data-when=time]", (e) => [
      e.getAttribute("datetime")!,
      e.textContent!,
    ]);
    assert.equal(utc[1], timeInWords(utc[0], "UTC"));
    assert.match(utc[1], /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    await page.setJavaScriptEnabled(true);

    // A license fee past a budget: the page's words, a link to the Budgets page, nothing charged.
    await page.goto(`${base}/buyer/budgets`, { waitUntil: "load" });
    await submitForm(page, "form:has(input[name=publisherId][value=pub_demo])", {
      monthlyUsd: "1.00",
    });
    await page.goto(`${base}/buyer/catalog/pub_demo`, { waitUntil: "load" });
    await page.click("input[name=useCases][value=display]");
    assert.equal(await submitForm(page, "form[action='/buyer/catalog/pub_demo/license']"), 409);
    await screenshot(page, "words-budget-refusal");
    await page.setViewport({ width: 375, height: 800 });
    await page.$eval("#license [role=alert]", (el) => el.scrollIntoView());
    await screenshot(page, "words-budget-refusal-375", false);
    await page.setViewport({ width: 1280, height: 900 });
    const alert = await page.$eval("#license [role=alert]", (el) => ({
      text: (el as HTMLElement).innerText,
      href: el.querySelector("a")?.getAttribute("href"),
    }));
    assert.match(alert.text, /^Nothing was charged: .*past your budget\. Raise the budget/);
    assert.equal(alert.href, "/buyer/budgets");
    assert.doesNotMatch(alert.text, /\/api\/|USD/);
    await page.goto(`${base}/buyer/offers`, { waitUntil: "load" });
    const accept = await page.$("form[action$='/accept']");
    assert.ok(accept, "an offer is open");
    const [nav] = await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      accept.evaluate((f) => (f as HTMLFormElement).requestSubmit()),
    ]);
    assert.equal(nav?.status(), 409);
    const offerAlert = await page.$eval(".card [role=alert]", (el) => ({
      text: (el as HTMLElement).innerText,
      href: el.querySelector("a")?.getAttribute("href"),
    }));
    assert.match(offerAlert.text, /^Nothing was charged: /);
    assert.equal(offerAlert.href, "/buyer/budgets");

    // The publisher's console.
    await seedPublisher(folio, page, base);
    await walkPortal(page, base, ["/publisher"], "/publisher", read);

    // The operator's console, signed in through the API's two steps.
    const op = await signedInOperator(folio);
    const [name, value] = op.cookie.split("=");
    await page.setCookie({ name, value, url: base });
    await walkPortal(page, base, ["/operator"], "/operator", read, 30);

    assert.ok(seen > 45, `only ${seen} pages were read`);
    assert.deepEqual(bad, [], `pages showing the API's words:\n${bad.join("\n")}`);
  },
);
