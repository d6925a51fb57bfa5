/**
 * No page scrolls sideways on a phone (issue 42; docs/DESIGN.md section 10): at 375 px, every page
 * of the publisher console, the buyer portal, the public pages and the demo publisher's own site is
 * no wider than the screen. The console and portal are walked by following their links from each
 * section (one page per shape of address), with data on them: a license, an offer, a budget and a
 * webhook endpoint. A failure names the page and the elements that stick out.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { axeViolations, browserTest, screenshot, submitForm } from "./browser.ts";
import { browserSignUp } from "./buyer_helpers.ts";
import { demoArticleIds, flushCalls, restRead } from "./console_activity_helpers.ts";
import { demoPath } from "./landing_helpers.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";

const WIDTH = 375;

/** The page's overflow at WIDTH and, when it overflows, what sticks out (outside scrollers). */
async function overflowOf(page: Page): Promise<{ extra: number; culprits: string[] }> {
  return await page.evaluate((width: number) => {
    const extra = document.documentElement.scrollWidth - width;
    if (extra <= 0) return { extra, culprits: [] };
    const scrolls = (el: Element) => /auto|scroll|hidden|clip/.test(getComputedStyle(el).overflowX);
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (scrolls(p)) return true;
      }
      return false;
    };
    const sticks = (el: Element | null) => !!el && el.getBoundingClientRect().right > width + 0.5;
    const all = [...document.body.querySelectorAll("*")];
    // What sticks out of the page and not out of a scroller of its own; failing that (text
    // too long to wrap), the innermost elements whose content spills past the screen.
    const outside = all.filter((el) => {
      const parent = el.parentElement;
      const top = parent === document.body || !sticks(parent);
      return sticks(el) && top && !inScroller(el);
    });
    const spills = all.filter((el) =>
      el.getBoundingClientRect().left + el.scrollWidth > width + 0.5 && !scrolls(el) &&
      !inScroller(el)
    );
    const culprits = (outside.length ? outside : spills.reverse())
      .slice(0, 4)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${el.outerHTML.slice(0, 140)}… (right ${Math.round(r.right)} px)`;
      });
    return { extra, culprits };
  }, WIDTH);
}

/** The shape of an address: segments with digits (ids, dates) count as one. */
function shapeOf(path: string): string {
  return path.split("/").map((s) => /\d/.test(s) ? "*" : s).join("/");
}

const SKIP = /\/(logout|download)\b|\.(csv|xml|json|pdf|txt)$|\/export\b/;

browserTest(
  "every page is no wider than a phone (375 px): console, buyer portal, public pages, the demo site",
  async ({ folio, page, base }) => {
    const wide: string[] = [];
    const inaccessible: string[] = [];
    let seen = 0;
    const check = async (url: string) => {
      const res = await page.goto(url, { waitUntil: "load" });
      if (!res?.headers()["content-type"]?.startsWith("text/html")) return false;
      seen++;
      const { extra, culprits } = await overflowOf(page);
      const shot = new URL(url).pathname.replace(/[^a-z0-9]+/gi, "-");
      await screenshot(page, `phone${shot}${extra > 0 ? "-wide" : ""}`, false);
      if (extra > 0) wide.push(`${url} is ${extra} px too wide:\n    ${culprits.join("\n    ")}`);
      // Every axe rule, landmark-unique included (issue 42), on every page walked.
      for (const v of await axeViolations(page)) {
        inaccessible.push(`${url}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join("\n    ")}`);
      }
      return true;
    };
    /** Walks the links under `prefix` from `starts`, one page per address shape. */
    const walk = async (starts: string[], prefix: string, limit = 90) => {
      const shapes = new Set<string>();
      const queue = [...starts];
      while (queue.length && shapes.size < limit) {
        const path = queue.shift()!;
        if (shapes.has(shapeOf(path))) continue;
        shapes.add(shapeOf(path));
        if (!await check(`${base}${path}`)) continue;
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
    };

    // The public pages, signed out.
    await page.setViewport({ width: WIDTH, height: 800 });
    for (
      const path of [
        "/",
        "/license/pub_demo",
        "/status",
        "/docs",
        "/publisher/signup",
        "/publisher/login",
        "/buyer/signup",
        "/buyer/login",
      ]
    ) await check(`${base}${path}`);
    const site = `http://demo.localhost:${new URL(base).port}`;
    for (const path of ["/", (await demoPath(folio, "OBSERVE")).path]) {
      await check(`${site}${path}`);
    }
    await check(`${site}${(await demoPath(folio, "PAYWALL")).path}`);

    // A buyer with a license, an offer, a request, a budget and a webhook endpoint.
    await page.setViewport({ width: 1280, height: 900 });
    const apiKey = await browserSignUp(page, base, "phone-buyer-signup");
    await page.goto(`${base}/buyer/catalog/pub_demo`, { waitUntil: "load" });
    await page.click("input[name=useCases][value=summarization]");
    assert.equal(await submitForm(page, "form[action='/buyer/catalog/pub_demo/license']"), 200);
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
    await post(`/api/publisher/license-requests/${requestId}/approve`, folio.seeded!.apiKey, {
      monthlyPriceUsdCents: 30_000,
      note: "Attribution required",
    });
    await post("/api/marketplace/license-requests", apiKey, {
      publisherId: "pub_demo",
      useCase: "ai_search",
      message: "A request still open",
      maxMonthlyUsdCents: 20_000,
    });
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
    const [paid, open] = [
      await demoArticleIds(folio, "PAYWALL"),
      await demoArticleIds(folio, "OBSERVE"),
    ];
    for (const id of paid.slice(0, 2)) {
      assert.equal(await restRead(folio, id, { prompt: "summarise this", buyerKey: apiKey }), 200);
    }
    const prompt = "are heat pumps worth it in a cold climate, and what does a home battery cost?";
    assert.equal(await restRead(folio, open[0], { prompt }), 200);
    await flushCalls(folio);
    await page.setViewport({ width: WIDTH, height: 800 });
    await walk(["/buyer"], "/buyer");

    // The demo publisher, signed in, with its seeded articles, calls and the buyer's request.
    await page.setViewport({ width: 1280, height: 900 });
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
    await page.setViewport({ width: WIDTH, height: 800 });
    await walk(["/publisher"], "/publisher");

    assert.ok(seen > 40, `only ${seen} pages were looked at`);
    assert.deepEqual(wide, [], `pages wider than ${WIDTH} px:\n${wide.join("\n")}`);
    assert.deepEqual(inaccessible, [], `axe violations:\n${inaccessible.join("\n")}`);
  },
);
