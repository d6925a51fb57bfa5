/** GET /docs: the API reference page, rendered on the server from GET /api/openapi.json. */
import assert from "node:assert/strict";
import { referenceOf } from "../server/surfaces/openapi/reference.ts";
import { ApiDocsPage } from "../ui/api_docs.tsx";
import { renderPage } from "../ui/layout.tsx";
import { axeViolations, browserAvailable, launchBrowser, openPage, screenshot } from "./browser.ts";
import { json, startTestFolio, testFolio } from "./helpers.ts";

type Doc = { paths: Record<string, Record<string, { summary: string }>> };

Deno.test("/docs lists every operation of the OpenAPI document, with its anchor, summary and curl", async () => {
  await using folio = await testFolio();
  const doc = await json<Doc>(await folio.request("/api/openapi.json"));
  const res = await folio.request("/docs");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  const html = await res.text();
  assert.doesNotMatch(html, /<script(?![^>]*src="\/docs\/copy\.js")/, "no inline script");
  const anchors = [...html.matchAll(/<article class="op" id="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(anchors).size, anchors.length, "anchors are unique");
  let operations = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      operations++;
      const heading = `<span class="m ${method.toUpperCase()}">${method.toUpperCase()}</span>` +
        `<code>${escape(path)}</code>`;
      assert.ok(html.includes(heading), `${method} ${path} has its heading`);
      assert.ok(html.includes(escape(op.summary)), `${method} ${path} has its summary`);
    }
  }
  assert.equal(anchors.length, operations);
  for (const anchor of anchors) assert.ok(html.includes(`href="#${anchor}"`), `${anchor} indexed`);
  // Tags, the buyer's headers and a curl with the key and a per-read idempotency key.
  for (const tag of ["Buyer marketplace", "Articles (REST)", "Publisher management"]) {
    assert.ok(html.includes(`>${escape(tag)}</a>`), tag);
  }
  assert.ok(html.includes("Folio-Charged-Usd-Cents"));
  assert.ok(html.includes("Folio-Budget-Remaining-Usd-Cents"));
  assert.ok(html.includes("-H &quot;Idempotency-Key: $IDEMPOTENCY_KEY&quot;"));
  assert.ok(html.includes("curl -X POST &quot;http://localhost:8080/api/marketplace/signup"));
  // A request body's field table: nested fields, enums and limits in words.
  assert.ok(html.includes("<code>useCases</code>"));
  assert.match(html, /one of &quot;summarization&quot;, &quot;display&quot;, &quot;rag&quot;/);
  assert.match(html, /1 to 120 characters|at most 120 characters/);
  assert.ok(html.includes("<code>publishers[].rights.display</code>"), "nested answer fields");
  assert.ok(!html.includes("Not served by this build yet"), "every contract route is served now");

  const home = await (await folio.request("/")).text();
  assert.ok(home.includes('href="/docs"'), "the home page links the reference");

  const js = await folio.request("/docs/copy.js");
  assert.equal(js.status, 200);
  assert.match(js.headers.get("content-type") ?? "", /javascript/);
  assert.match(await js.text(), /clipboard/);
});

Deno.test("the reference renders every text of the document as text, never as markup", () => {
  const evil = '<script>alert("x")</script>';
  const doc = {
    openapi: "3.1.0",
    info: { title: `Evil ${evil}`, version: "1", description: evil },
    servers: [{ url: "http://localhost:8080" }],
    tags: [{ name: `Tag ${evil}`, description: evil }],
    paths: {
      "/api/evil/{id}": {
        post: {
          tags: [`Tag ${evil}`],
          summary: `Summary ${evil}`,
          description: `Description ${evil}`,
          parameters: [{ name: "id", in: "path", required: true, description: evil }],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { [evil]: { type: "string", description: evil, examples: [evil] } },
                  required: [evil],
                },
              },
            },
          },
          responses: { 200: { description: evil } },
          "x-folio-pending": evil,
        },
      },
    },
  };
  const html = renderPage(
    ApiDocsPage({ reference: referenceOf(doc), specUrl: "/api/openapi.json" }),
  );
  assert.ok(!html.includes("<script>alert"), "no live script");
  assert.ok(html.includes("&lt;script>alert(") || html.includes("&lt;script&gt;alert("));
  assert.equal((html.match(/<script/g) ?? []).length, 1, "only the page's own copy.js");
});

Deno.test({
  name: "/docs in Chromium: no serious or critical axe-core violation, and a screenshot",
  ignore: !browserAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using folio = await startTestFolio();
    await using browser = await launchBrowser();
    const page = await openPage(browser);
    await page.setViewport({ width: 1280, height: 900 });
    const res = await page.goto(`${folio.url}/docs`, { waitUntil: "load" });
    assert.equal(res?.status(), 200);
    assert.deepEqual(await axeViolations(page), []);
    // The page is long: the screenshots show the top and one operation, as a reader sees them.
    await screenshot(page, "api-docs", false);
    const copyButtons = await page.$$eval(".copy-button:not([hidden])", (b) => b.length);
    const operations = await page.$$eval("article.op", (a) => a.length);
    assert.ok(operations > 50);
    // Headless Chromium may lack the clipboard API; where it has it, every example gets a button.
    assert.ok(copyButtons === 0 || copyButtons === operations);
    await page.goto(`${folio.url}/docs#post-api-marketplace-signup`, { waitUntil: "load" });
    const visible = await page.$eval("#post-api-marketplace-signup", (el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight;
    });
    assert.ok(visible, "an index anchor scrolls to its operation");
    await page.goto(`${folio.url}/docs#get-api-v1-articles-idorurl`, { waitUntil: "load" });
    await screenshot(page, "api-docs-article", false);
  },
});

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll('"', "&quot;");
}
