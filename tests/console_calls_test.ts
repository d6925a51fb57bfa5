/** The console's calls page: calls from the API, the page each read, filters, paging, CSV, isolation. */
import assert from "node:assert/strict";
import { CallsPage } from "../ui/console/calls.tsx";
import { renderPage } from "../ui/layout.tsx";
import { consoleSignUp, textOf } from "./console_helpers.ts";
import {
  demoArticleIds,
  demoVisitor,
  flushCalls,
  mcpTool,
  restRead,
  signUpBuyer,
} from "./console_activity_helpers.ts";
import { testFolio } from "./helpers.ts";
import { insertCalls } from "../store/call_log.ts";

const WHO = {
  publisherId: "pub_x",
  slug: "x",
  name: "X Times",
  email: "x@example.test",
  csrfToken: "t",
};

Deno.test("a new publisher's calls page says no calls yet and how to make the first", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/calls");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /No calls yet/);
  assert.match(text, /paste your MCP URL/i);
  assert.match(page.html, /<a href="\/publisher\/calls" aria-current="page">Calls<\/a>/);
  assert.doesNotMatch(page.html, /<table/);
});

Deno.test("the calls page lists calls newest first with the page each read, and filters them", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const { apiKey } = await signUpBuyer(folio, "Acme AI");
  const [open] = await demoArticleIds(folio, "OBSERVE");
  const [paid] = await demoArticleIds(folio, "PAYWALL");
  assert.equal(await restRead(folio, open, { prompt: "what about heat pumps?" }), 200);
  assert.equal(await restRead(folio, paid, { prompt: "and the cost?", buyerKey: apiKey }), 200);
  const found = await mcpTool(folio, "search_articles", { query: "energy" }, { bearer: apiKey });
  assert.equal(found.isError, undefined);
  await flushCalls(folio);

  const page = await visitor.get("/publisher/calls");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /3 calls/);
  assert.match(text, /Read article REST API/);
  assert.match(text, /Search articles MCP/);
  assert.match(text, /ok 200/);
  assert.match(text, /\d+ ms/);
  assert.equal(page.html.match(/<tr class="read">/g)?.length, 2, "the two reads name a page");
  assert.match(page.html, /href="http:\/\/demo\.localhost:\d+\/articles\//, "links that answer");
  assert.match(text, /Calls for this page/);
  assert.match(text, /Buyer Acme AI/);
  assert.doesNotMatch(text, /_method:initialize/, "protocol traces are folded");
  assert.match(text, /console-test\/1\.0/, "the user agent is shown");
  assert.ok(text.indexOf("Search articles") < text.indexOf("Read article"), "newest first");
  assert.match(page.html, /href="\/publisher\/calls\.csv"[^>]*>Download CSV/);

  const mcp = textOf((await visitor.get("/publisher/calls?surface=mcp")).html);
  assert.match(mcp, /Search articles/);
  assert.doesNotMatch(mcp, /Read article/);
  assert.match(mcp, /1 matching call\b/);
  const reads = await visitor.get("/publisher/calls?only=reads");
  assert.doesNotMatch(textOf(reads.html), /Search articles/);
  assert.match(reads.html, /<option value="reads" selected>/);
  const one = textOf((await visitor.get(`/publisher/calls?article=${paid}`)).html);
  assert.match(one, /1 matching call\b/);
  const none = textOf((await visitor.get("/publisher/calls?surface=a2a")).html);
  assert.match(none, /No calls match these filters/);
  const future = textOf((await visitor.get("/publisher/calls?from=2099-01-01")).html);
  assert.match(future, /0 matching calls/);

  const bad = await visitor.get("/publisher/calls?surface=%3Cscript%3E");
  assert.equal(bad.status, 400);
  assert.match(bad.html, /id="surface-error" role="alert">Surface: must be one of/);
  assert.match(bad.html, /<select id="surface" name="surface" aria-invalid="true"/);
  assert.match(textOf(bad.html), /Read article/, "every call is still listed");
  const cursor = await visitor.get("/publisher/calls?cursor=nope");
  assert.equal(cursor.status, 400);
  assert.match(cursor.html, /class="problem" role="alert">cursor: must be a nextCursor/);
  const backwards = await visitor.get("/publisher/calls?from=2026-11-10&to=2026-11-01");
  assert.equal(backwards.status, 400);
  assert.match(backwards.html, /role="alert">To: must not be before from/);

  const csv = await visitor.get("/publisher/calls.csv?only=reads");
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(csv.headers.get("content-disposition") ?? "", /attachment; filename="folio-calls-/);
  const lines = csv.html.trim().split("\r\n");
  assert.equal(lines.length, 3, "a header and the two reads");
  assert.match(lines[0], /^"at","surface","tool","outcome",/);
  assert.ok(lines.slice(1).every((l) => l.includes(`"_rest:get_article"`)));
});

Deno.test("the calls page pages through older calls with the filters kept", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const base = folio.clock.now().getTime() - 60_000;
  await insertCalls(
    folio.store.db,
    Array.from({ length: 130 }, (_, i) => ({
      publisherId: "pub_demo",
      at: new Date(base + i * 100),
      surface: "rest" as const,
      tool: i % 2 ? "_rest:search_articles" : "_rest:list_recent",
      userAgent: `agent-${i}`,
      latencyMs: 2,
      status: "ok" as const,
      httpStatus: 200,
      identity: null,
    })),
  );
  const first = await visitor.get("/publisher/calls?surface=rest");
  assert.match(textOf(first.html), /130 matching calls/);
  assert.equal(first.html.match(/<tr/g)?.length, 101, "a header and 100 calls");
  const older = /href="(\/publisher\/calls\?surface=rest&amp;cursor=[^"]+)">Older calls/.exec(
    first.html,
  );
  assert.ok(older, "a link to older calls");
  const second = await visitor.get(older[1].replaceAll("&amp;", "&"));
  assert.equal(second.status, 200);
  assert.equal(second.html.match(/<tr/g)?.length, 31);
  assert.match(textOf(second.html), /agent-0\b/);
  assert.doesNotMatch(second.html, />Older calls</);
  assert.match(second.html, /href="\/publisher\/calls\?surface=rest">Newest calls/);
});

Deno.test("a publisher's calls page never shows another publisher's calls", async () => {
  await using folio = await testFolio();
  const [open] = await demoArticleIds(folio, "OBSERVE");
  assert.equal(await restRead(folio, open, { prompt: "demo only" }), 200);
  await flushCalls(folio);
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/calls");
  assert.match(textOf(page.html), /No calls yet/);
  assert.doesNotMatch(textOf(page.html), /Read article/);
});

const ROW = {
  id: 1,
  at: "2026-11-15T12:00:00.000Z",
  surface: "landing",
  tool: "_landing:article",
  userAgent: "GPTBot/1.2",
  latencyMs: 3,
  status: "error" as const,
  requestId: null,
  caller: { kind: "anonymous" as const },
  agent: { key: "crawler:GPTBot", kind: "crawler" as const, name: "GPTBot (OpenAI)" },
  article: { id: "a1", title: "Heat pumps", url: "https://demo.localhost/a1" },
};

function page(calls: Parameters<typeof CallsPage>[0]["calls"], filters = {}) {
  return renderPage(CallsPage({
    who: WHO,
    calls,
    total: calls.length,
    nextCursor: null,
    paged: false,
    filters,
    surfaces: ["landing", "rest"],
    outcomes: ["ok", "priced", "refused", "not_found", "failed"],
    agents: [ROW.agent],
  }));
}

Deno.test("a 402 is labelled a price quote, not an error; other failures say what they are", () => {
  const html = page([
    { ...ROW, outcome: "priced", httpStatus: 402 },
    { ...ROW, id: 2, outcome: "refused", httpStatus: 403 },
    { ...ROW, id: 3, outcome: "not_found", httpStatus: 404, article: null },
    { ...ROW, id: 4, status: "ok", outcome: "ok", httpStatus: 200 },
  ]);
  const text = textOf(html);
  assert.match(text, /GPTBot\/1\.2 priced 402/);
  assert.match(text, /GPTBot\/1\.2 refused 403/);
  assert.match(text, /not found 404/);
  const tags = [...html.matchAll(/<span class="tag (\w+)">([\w ]+)<\/span>/g)].map((
    m,
  ) => [m[1], m[2]]);
  assert.deepEqual(tags, [["quote", "priced"], ["err", "refused"], ["err", "not found"], [
    "ok",
    "ok",
  ]]);
  assert.match(text, /Site: article Publisher pages/);
  assert.match(html, /<a href="\/publisher\/calls\?agent=crawler%3AGPTBot">GPTBot \(OpenAI\)<\/a>/);
});

Deno.test("a deleted article's calls still show; filters survive in links, escaped", () => {
  const html = page(
    [{ ...ROW, outcome: "priced", httpStatus: 402, article: { id: "a9", title: null, url: null } }],
    { surface: "landing", agent: "<x>" },
  );
  assert.match(textOf(html), /Deleted article/);
  assert.match(html, /<option value="&lt;x>" selected>&lt;x><\/option>/);
  assert.match(html, /href="\/publisher\/calls\.csv\?surface=landing&amp;agent=%3Cx%3E"/);
  assert.doesNotMatch(html, /<x>/);
});
