/**
 * No page scrolls sideways on a phone (issue 42; docs/DESIGN.md section 10): at 375 px, every page
 * of the publisher console, the buyer portal, the public pages and the demo publisher's own site is
 * no wider than the screen. The console and portal are walked by following their links from each
 * section (one page per shape of address), with data on them: a license, an offer, a budget and a
 * webhook endpoint. A failure names the page and the elements that stick out.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { axeViolations, browserTest, screenshot } from "./browser.ts";
import { demoPath } from "./landing_helpers.ts";
import { seedBuyer, seedPublisher, walkPortal } from "./page_walk.ts";

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

    // A buyer with a license, offers, a request, a budget, a webhook endpoint and reads.
    await page.setViewport({ width: 1280, height: 900 });
    await seedBuyer(folio, page, base);
    await page.setViewport({ width: WIDTH, height: 800 });
    await walkPortal(page, base, ["/buyer"], "/buyer", check);

    // The demo publisher, signed in, with its seeded articles, calls and the buyer's request.
    await page.setViewport({ width: 1280, height: 900 });
    await seedPublisher(folio, page, base);
    await page.setViewport({ width: WIDTH, height: 800 });
    await walkPortal(page, base, ["/publisher"], "/publisher", check);

    assert.ok(seen > 40, `only ${seen} pages were looked at`);
    assert.deepEqual(wide, [], `pages wider than ${WIDTH} px:\n${wide.join("\n")}`);
    assert.deepEqual(inaccessible, [], `axe violations:\n${inaccessible.join("\n")}`);
  },
);
