/**
 * Issue 42: license.xml read in a browser. Agents keep RSL's media type (RSL 1.0 §2.2,
 * application/rsl+xml, the document unchanged); a browser's navigation (Sec-Fetch-Dest:
 * document) gets the license in words, the RSL embedded in the page as RSL 1.0's embedded form:
 * axe clean and no wider than a phone, on the publisher's domain and under /read/<id>.
 */
import assert from "node:assert/strict";
import { browserTest, checkPage, pageText, screenshot } from "./browser.ts";
import { visit } from "./landing_helpers.ts";

browserTest(
  "issue 42: license.xml is a page in words in Chromium; agents still get application/rsl+xml",
  async ({ folio, page, base }) => {
    const site = `http://demo.localhost:${new URL(base).port}`;
    const errors: string[] = [];
    // What the page asks for loads (the browser's own favicon probe aside).
    page.on("response", (r) => {
      if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) errors.push(r.url());
    });
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
        errors.push(m.text());
      }
    });
    for (
      const [url, shot] of [
        [`${site}/license.xml`, "license-xml-domain"],
        [`${base}/read/pub_demo/license.xml`, "license-xml-platform"],
      ]
    ) {
      for (const width of [1280, 375]) {
        await page.setViewport({ width, height: 900 });
        const res = await page.goto(url, { waitUntil: "load" });
        assert.equal(res?.status(), 200, url);
        assert.match(res!.headers()["content-type"], /^text\/html/);
        assert.match(res!.headers()["vary"], /Sec-Fetch-Dest/);
        const text = await pageText(page);
        assert.match(text, /License for AI use\s+This is The Demo Ledger.s license for AI systems/);
        assert.match(text, /Allowed: giving the text to an AI model to answer with/);
        assert.match(text, /Not allowed: training AI models/);
        assert.match(text, /Paid per page crawled: \d+\.\d+ USD|Free of charge/);
        assert.match(text, /With a training license, on request/);
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.equal(overflow, 0, `${url} fits ${width} px`);
        await checkPage(page, `${shot}-${width}`);
        await screenshot(page, `${shot}-${width}-top`, false);
      }
    }
    // The page is itself RSL: the embedded license is the document's <rsl> element.
    const embedded = await page.$eval(
      "script[type='application/rsl+xml']",
      (el) => el.textContent ?? "",
    );
    assert.match(embedded, /^<rsl xmlns="https:\/\/rslstandard\.org\/rsl">/);
    await page.click("summary");
    await checkPage(page, "license-xml-as-agents-read-it");
    assert.deepEqual(errors, [], "nothing on the page breaks its policy");

    // Agents and scripts: the RSL document with its media type, whatever else they accept.
    for (
      const accept of ["*/*", "application/rsl+xml", "text/html,application/xhtml+xml,*/*;q=0.8"]
    ) {
      const res = await visit(folio, "/license.xml", { accept });
      assert.equal(res.headers.get("content-type"), "application/rsl+xml; charset=utf-8", accept);
      const xml = await res.text();
      assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
      assert.ok(xml.includes(embedded), "the page embeds the same license");
    }
  },
);
