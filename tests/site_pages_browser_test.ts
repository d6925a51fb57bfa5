/**
 * A publisher's own pages (ui/site/) in Debian's Chromium: each page, rendered from sample views
 * and served by a tiny local server (no Folio needed), passes axe-core with no serious or critical
 * violation, at desktop and phone widths. The README's screenshots are docs/screenshots/site-*.png.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import {
  renderSite,
  SiteArticle,
  SiteBook,
  SiteError,
  SiteHome,
  SiteNotFound,
  SiteTopic,
} from "../ui/site/mod.ts";
import {
  sampleArticle,
  sampleBook,
  sampleBrand,
  sampleChapter,
  sampleHome,
  sampleTopic,
} from "../ui/site/testing.ts";
import { CSP, cspText } from "../server/platform/security_headers.ts";
import { axeViolations, browserAvailable, launchBrowser, openPage } from "./browser.ts";

const SHOTS = new URL("../docs/screenshots/", import.meta.url);

const LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="48" viewBox="0 0 220 48">` +
  `<rect width="48" height="48" rx="10" fill="#0f766e"/><path d="M10 32 L24 14 L38 32 Z" fill="#fff"/>` +
  `<text x="58" y="32" font-family="Georgia,serif" font-size="22" font-weight="700" fill="#111827">` +
  `Harbour Ledger</text></svg>`;

/** The pages under test by path, rendered; `origin` is the server's, for the logo. */
function pages(origin: string): Record<string, string> {
  const logoBrand = sampleBrand({ logoUrl: `${origin}/logo.svg` });
  const onePage = (basePath: string) => ({ page: 1, hasNext: false, basePath });
  return {
    "/": renderSite(h(SiteHome, sampleHome())),
    "/?page=2": renderSite(
      h(SiteHome, sampleHome({ paging: { page: 2, hasNext: false, basePath: "/" } })),
    ),
    "/empty": renderSite(
      h(SiteHome, sampleHome({ latest: [], topics: [], books: [], paging: onePage("/") })),
    ),
    "/topics/energy": renderSite(h(SiteTopic, sampleTopic({ brand: logoBrand }))),
    "/topics/none": renderSite(
      h(SiteTopic, sampleTopic({ tag: "none", articles: [], paging: onePage("/topics/none") })),
    ),
    "/books/bk_tides": renderSite(h(SiteBook, sampleBook())),
    "/full": renderSite(h(SiteArticle, sampleArticle("full"))),
    "/teaser": renderSite(h(SiteArticle, sampleArticle("teaser"))),
    "/blocked": renderSite(h(SiteArticle, sampleArticle("blocked"))),
    "/chapter": renderSite(h(SiteArticle, sampleChapter())),
    "/yellow": renderSite(h(
      SiteArticle,
      sampleArticle("teaser", {
        brand: sampleBrand({ primaryColor: "#fde047", font: "Georgia, serif" }),
      }),
    )),
    "/missing": renderSite(h(SiteNotFound, { brand: sampleBrand(), path: "/missing" })),
    "/error": renderSite(h(SiteError, { brand: sampleBrand(), requestId: "req_0123" })),
  };
}

const present = browserAvailable();

Deno.test({
  name: "a publisher's pages pass axe-core in Chromium at desktop and phone widths",
  ignore: !present,
  // Chromium's pipes outlive a test's own resources by design.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    let served: Record<string, string> = {};
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req) => {
        const url = new URL(req.url);
        if (url.pathname === "/logo.svg") {
          return new Response(LOGO, { headers: { "content-type": "image/svg+xml" } });
        }
        const page = served[url.pathname + url.search];
        return new Response(page ?? "not here", {
          status: page ? 200 : 404,
          headers: {
            "content-type": "text/html; charset=utf-8",
            // What the landing path sends (tests/page_csp_browser_test.ts enforces it there).
            "content-security-policy": cspText(CSP.site),
          },
        });
      },
    );
    const origin = `http://127.0.0.1:${server.addr.port}`;
    served = pages(origin);

    await using browser = await launchBrowser();
    const page = await openPage(browser);
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    await Deno.mkdir(SHOTS, { recursive: true });

    for (const [width, height] of [[1280, 900], [390, 844]]) {
      await page.setViewport({ width, height });
      for (const path of Object.keys(served)) {
        const res = await page.goto(origin + path, { waitUntil: "load" });
        assert.equal(res?.status(), 200, path);
        const violations = await axeViolations(page);
        assert.deepEqual(violations, [], `axe on ${path} at ${width}px`);
        // Nothing scrolls sideways on a phone.
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.ok(overflow <= 0, `${path} at ${width}px overflows by ${overflow}px`);
      }
    }
    assert.deepEqual(failed, [], "every resource the pages ask for loads");

    // The skip link is the first stop and becomes visible on focus.
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${origin}/full`, { waitUntil: "load" });
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { text: el.textContent, top: el.getBoundingClientRect().top };
    });
    assert.equal(focused.text, "Skip to content");
    assert.ok(focused.top >= 0, "the focused skip link is on screen");

    // The logo renders with its alt text as the home link's name.
    await page.goto(`${origin}/topics/energy`, { waitUntil: "load" });
    const logo = await page.$eval(".brand img", (img) => ({
      alt: (img as HTMLImageElement).alt,
      loaded: (img as HTMLImageElement).naturalWidth > 0,
    }));
    assert.deepEqual(logo, { alt: "The Harbour Ledger", loaded: true });

    for (
      const [path, name] of [["/", "site-home"], ["/teaser", "site-article-teaser"], [
        "/full",
        "site-article-full",
      ]]
    ) {
      await page.goto(origin + path, { waitUntil: "load" });
      await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
    }
    const extra = Deno.env.get("FOLIO_SCREENSHOTS");
    if (extra) {
      // More views to look at by eye (not committed): every page, desktop and phone.
      await Deno.mkdir(extra, { recursive: true });
      for (const [width, height] of [[1280, 900], [390, 844]]) {
        await page.setViewport({ width, height });
        for (const path of Object.keys(served)) {
          await page.goto(origin + path, { waitUntil: "load" });
          const file = `${extra}/site${path.replace(/[^a-z0-9]+/g, "-")}-${width}.png`;
          await page.screenshot({ path: file, fullPage: true });
        }
      }
    }
  },
});
