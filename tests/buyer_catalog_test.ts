/** The buyer portal's catalog, publisher pages, connection snippets and license form, in process. */
import assert from "node:assert/strict";
import { filterCatalog } from "../server/pages/buyer/catalog.ts";
import { pageOf } from "../server/pages/kit/pages.ts";
import type { CatalogFilter, CatalogPublisher } from "../ui/buyer/catalog.tsx";
import { startFakeStripe } from "./billing_fake_stripe.ts";
import { hidden, textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { alertOf, noticeText, portalSignUp } from "./buyer_helpers.ts";

const NONE: CatalogFilter = { q: "", right: "", maxPriceUsd: "", surface: "", auth: "" };

function entry(over: Partial<CatalogPublisher>): CatalogPublisher {
  return {
    publisherId: "pub_x",
    slug: "x",
    name: "X",
    description: "",
    articleCount: 1,
    chapterCount: 0,
    rights: { summarization: "granted", display: "granted", rag: "granted", fine_tuning: "denied" },
    pricingUsdCents: { summarization: 0.1, display: 2, rag: 0.5 },
    paywallMeterLimit: 3,
    mcpEndpoint: "http://localhost:8080/api/mcp/pub_x",
    restApi: null,
    a2aEndpoint: null,
    a2aCardUrl: null,
    termsUrl: "http://localhost:8080/license/pub_x",
    requiresAuth: false,
    enterpriseLicense: null,
    ...over,
  };
}

Deno.test("the catalog filter: search, right granted, display price, surface, sign-in", () => {
  const list = [
    entry({ publisherId: "a", name: "Harbor Gazette", description: "News from the harbor" }),
    entry({
      publisherId: "b",
      name: "Science Weekly",
      rights: {
        summarization: "granted",
        display: "denied",
        rag: "granted",
        fine_tuning: "denied",
      },
      pricingUsdCents: { summarization: 0.1, display: 10, rag: 0.5 },
      a2aEndpoint: "http://x/a2a",
      requiresAuth: true,
    }),
  ];
  const ids = (f: Partial<CatalogFilter>) =>
    filterCatalog(list, { ...NONE, ...f }).publishers.map((p) => p.publisherId);
  assert.deepEqual(ids({}), ["a", "b"]);
  assert.deepEqual(ids({ q: "HARBOR" }), ["a"]);
  assert.deepEqual(ids({ q: "weekly" }), ["b"]);
  assert.deepEqual(ids({ right: "display" }), ["a"]);
  assert.deepEqual(ids({ maxPriceUsd: "0.05" }), ["a"]);
  assert.deepEqual(ids({ maxPriceUsd: "$0.10" }), ["a", "b"]);
  assert.deepEqual(ids({ surface: "a2a" }), ["b"]);
  assert.deepEqual(ids({ surface: "rest" }), ["a", "b"]);
  assert.deepEqual(ids({ auth: "required" }), ["b"]);
  assert.deepEqual(ids({ auth: "open" }), ["a"]);
  const bad = filterCatalog(list, { ...NONE, maxPriceUsd: "cheap" });
  assert.equal(bad.problem, "maxPriceUsd: must be a number of dollars, e.g. 0.05");
  assert.equal(bad.publishers.length, 2, "a bad price filters nothing");
});

Deno.test("long lists are shown a page at a time; a page past the end shows the last", () => {
  const items = Array.from({ length: 45 }, (_, i) => i);
  assert.deepEqual(pageOf(items, undefined, 20), { items: items.slice(0, 20), page: 1, pages: 3 });
  assert.deepEqual(pageOf(items, "3", 20).items, [40, 41, 42, 43, 44]);
  assert.equal(pageOf(items, "99", 20).page, 3);
  assert.equal(pageOf(items, "-1", 20).page, 1);
  assert.equal(pageOf(items, "abc", 20).page, 1);
  assert.deepEqual(pageOf([], "2", 20), { items: [], page: 1, pages: 1 });
});

Deno.test("the catalog page lists the demo publisher and filters it in and out", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const all = await visitor.get("/buyer/catalog");
  assert.equal(all.status, 200);
  const text = textOf(all.html);
  assert.match(text, /The Demo Ledger/);
  assert.match(text, /48/);
  assert.match(all.html, /href="\/buyer\/catalog\/pub_demo"/);
  const found = await visitor.get("/buyer/catalog?q=demo+ledger&right=display&surface=a2a");
  assert.match(textOf(found.html), /^.*\b1 publisher\b(?! match)/);
  assert.match(found.html, /value="demo ledger"/, "the filter is kept");
  const none = await visitor.get("/buyer/catalog?maxPriceUsd=0.01");
  assert.match(textOf(none.html), /No publisher matches these filters/);
  assert.match(none.html, /href="\/buyer\/catalog">Show all publishers/);
  const bad = await visitor.get("/buyer/catalog?maxPriceUsd=cheap");
  assert.equal(bad.status, 400);
  assert.equal(alertOf(bad.html), "maxPriceUsd: must be a number of dollars, e.g. 0.05");
});

Deno.test("a publisher page shows rights, prices, meter, terms, the rate card and ready-to-paste snippets", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/catalog/pub_demo");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /display yes yes \$0\.02/);
  assert.match(text, /Summaries yes yes \$0\.001/);
  assert.match(text, /free paywalled reads? a month/);
  assert.match(page.html, /href="http:\/\/localhost:8080\/license\/pub_demo"/);
  assert.match(text, /Base access \$50\.00/);
  const mcp = "http://localhost:8080/api/mcp/pub_demo";
  const snippets = [...page.html.matchAll(/<code data-copy="([^"]*)"/g)].map((m) =>
    m[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&#x27;|&#39;/g, "'")
  );
  const claude = JSON.parse(snippets.find((s) => s.includes("mcp-remote"))!);
  assert.deepEqual(claude.mcpServers["folio-demo"].args, [
    "-y",
    "mcp-remote",
    mcp,
    "--header",
    "Authorization:${FOLIO_AUTH}",
  ]);
  const cursor = JSON.parse(snippets.find((s) => s.includes("${env:FOLIO_API_KEY}"))!);
  assert.deepEqual(cursor.mcpServers["folio-demo"], {
    url: mcp,
    headers: { Authorization: "Bearer ${env:FOLIO_API_KEY}" },
  });
  const vscode = JSON.parse(snippets.find((s) => s.includes('"servers"'))!);
  assert.equal(vscode.servers["folio-demo"].type, "http");
  assert.equal(vscode.servers["folio-demo"].url, mcp);
  assert.equal(vscode.inputs[0].password, true);
  const curl = snippets.find((s) => s.startsWith("# Search"))!;
  assert.match(curl, /Idempotency-Key: \$\(uuidgen\)/);
  assert.match(
    curl,
    /"http:\/\/demo\.localhost:8080\/api\/v1\/articles\/search\?q=energy&limit=5"/,
  );
  assert.ok(snippets.includes("http://demo.localhost:8080/.well-known/agent-card.json"));
  assert.equal(page.html.includes("mk_"), true, "names the key's form");
  assert.doesNotMatch(page.html, /mk_[0-9A-Za-z]{38}/, "never a real key");

  const missing = await visitor.get("/buyer/catalog/pub_nope");
  assert.equal(missing.status, 404);
  assert.match(textOf(missing.html), /There is no such publisher in the catalog/);
});

Deno.test("licensing from the publisher page: refusals say why with the API's status; success lands on the licenses", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/catalog/pub_demo");
  const csrf = hidden(page.html);
  const empty = await visitor.post("/buyer/catalog/pub_demo/license", { _csrf: csrf });
  assert.equal(empty.status, 400);
  // Base access alone is refused before the API is asked, beside the boxes (issue 34).
  assert.equal(
    alertOf(empty.html),
    "Use cases: tick at least one; base access alone covers no reads",
  );
  assert.match(empty.html, /<fieldset aria-invalid="true" aria-describedby="useCases-error /);
  assert.match(empty.html, /id="useCases-error"/);
  const forged = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: "nope",
    useCases: ["display"],
  });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(textOf(forged.html), /This form has expired Nothing was changed/);

  const ok = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: csrf,
    useCases: ["display", "rag"],
  });
  assert.equal(ok.url, "/buyer/licenses?done=licensed");
  assert.match(noticeText(ok.html)!, /^Licensed/);
  const row = textOf(ok.html);
  assert.match(row, /The Demo Ledger Subscription full display and RAG retrieval \$125\.00 active/);

  const again = await visitor.post("/buyer/catalog/pub_demo/license", {
    _csrf: csrf,
    useCases: ["display"],
  });
  assert.equal(again.status, 409);
  assert.equal(alertOf(again.html), "An active license already covers display for The Demo Ledger");
  assert.match(textOf(again.html), /Your subscription for full display and RAG retrieval: active/);
});

Deno.test("with a payment processor, licensing goes on to its checkout (303), and the page lets the form go there", async () => {
  await using stripe = startFakeStripe();
  await using folio = await testFolio({ env: stripe.env() });
  const { visitor } = await portalSignUp(folio);
  const page = await visitor.get("/buyer/catalog/pub_demo");
  assert.match(page.headers.get("content-security-policy")!, /form-action 'self' https:/);
  const cookie = [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await folio.request("/buyer/catalog/pub_demo/license", {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: hidden(page.html), useCases: "display" }).toString(),
  });
  assert.equal(res.status, 303);
  assert.match(res.headers.get("location")!, /checkout/);
  await res.body?.cancel();
  const licenses = await visitor.get("/buyer/licenses");
  assert.match(textOf(licenses.html), /waiting for checkout/);
  assert.match(textOf(licenses.html), /Continue to checkout/);
});
