/**
 * The publisher's site as a person sees it in Chromium, served by a real Folio on the demo's
 * custom domain (issue 13): the front page, a topic, an open article, a paywalled teaser and a
 * missing page, each with 0 serious or critical axe-core violations and no JavaScript needed.
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, pageText } from "./browser.ts";
import { demoPath } from "./landing_helpers.ts";

browserTest(
  "the publisher's site on its own domain reads well and passes axe",
  async ({ folio, page }) => {
    const origin = `http://demo.localhost:${new URL(folio.url).port}`;
    const go = async (path: string, status: number, shot: string) => {
      const res = await page.goto(`${origin}${path}`, { waitUntil: "load" });
      assert.equal(res?.status(), status, path);
      await checkPage(page, shot);
      return await pageText(page);
    };
    const home = await go("/", 200, "landing-home");
    assert.match(home, /Latest/);
    const topic = await page.$eval('a[href^="/topics/"]', (a) => a.getAttribute("href")!);
    await go(topic, 200, "landing-topic");
    const open = await demoPath(folio, "OBSERVE");
    await go(open.path, 200, "landing-article");
    const paid = await demoPath(folio, "PAYWALL");
    const teaser = await go(paid.path, 200, "landing-teaser");
    assert.match(teaser, /How to license this article/);
    assert.match(teaser, /USD 0\.\d+/);
    await go("/no/such/page", 404, "landing-404");
  },
);
