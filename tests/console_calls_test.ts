/** The console's calls page: the last 100 calls from the API, who made them, filters, isolation. */
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

Deno.test("the calls page lists REST and MCP calls newest first, reads set apart, traces folded", async () => {
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
  assert.match(text, /Latest calls/);
  assert.match(text, /Read article read _rest:get_article/);
  assert.match(text, /Search articles search_articles/);
  assert.match(text, /ok 200/);
  assert.match(text, /\d+ ms/);
  assert.match(text, /Who read your articles 2 article reads/);
  assert.equal(page.html.match(/<tr class="read">/g)?.length, 2);
  assert.doesNotMatch(text, /_method:initialize/, "protocol traces are folded");
  assert.match(text, /console-test\/1\.0/, "the user agent is shown");
  // Newest first: the MCP search came last.
  assert.ok(text.indexOf("search_articles") < text.indexOf("_rest:get_article"));

  const mcp = textOf((await visitor.get("/publisher/calls?surface=mcp")).html);
  assert.match(mcp, /search_articles/);
  assert.doesNotMatch(mcp, /_rest:/);
  assert.match(mcp, /1 matching calls/);
  const reads = await visitor.get("/publisher/calls?only=reads");
  assert.doesNotMatch(textOf(reads.html), /search_articles/);
  assert.match(reads.html, /<option value="reads" selected>/);
  const none = textOf((await visitor.get("/publisher/calls?surface=a2a")).html);
  assert.match(none, /None of the last 100 calls match this filter/);

  const bad = await visitor.get("/publisher/calls?surface=%3Cscript%3E");
  assert.equal(bad.status, 400);
  assert.match(bad.html, /role="alert">surface: must be one of rest, mcp, a2a/);
  assert.match(textOf(bad.html), /_rest:get_article/, "every call is still listed");
});

Deno.test("a publisher's calls page never shows another publisher's calls", async () => {
  await using folio = await testFolio();
  const [open] = await demoArticleIds(folio, "OBSERVE");
  assert.equal(await restRead(folio, open, { prompt: "demo only" }), 200);
  await flushCalls(folio);
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/calls");
  assert.match(textOf(page.html), /No calls yet/);
  assert.doesNotMatch(page.html, /get_article/);
});

Deno.test("each kind of caller is named: buyer, OAuth app with the consented email, anonymous, you", () => {
  const base = {
    at: "2026-11-15T12:00:00.000Z",
    surface: "mcp",
    userAgent: "ua",
    latencyMs: 12,
    status: "ok",
    httpStatus: 200,
  };
  const html = renderPage(CallsPage({
    who: WHO,
    calls: [
      {
        ...base,
        tool: "get_article",
        caller: { kind: "buyer", buyerId: "buy_1", name: "Acme AI" },
      },
      {
        ...base,
        tool: "get_article",
        caller: {
          kind: "oauth",
          clientId: "cli_1",
          clientName: "Claude",
          email: "reader@example.test",
        },
      },
      { ...base, tool: "search_articles", caller: { kind: "anonymous" } },
      {
        ...base,
        tool: "_dash:retrieve_passages",
        surface: "dashboard",
        caller: { kind: "publisher" },
      },
      { ...base, tool: "_rest:get_article", status: "error", httpStatus: 402 },
    ],
    received: 5,
    surface: "",
    surfaces: ["rest", "mcp"],
    readsOnly: false,
  }));
  const text = textOf(html);
  assert.match(text, /Acme AI buyer/);
  assert.match(text, /Claude · reader@example\.test OAuth app/);
  assert.match(text, /Anonymous/);
  assert.match(text, /Retrieve passages \(playground\) _dash:retrieve_passages/);
  assert.match(text, /You/);
  assert.match(text, /_rest:get_article — ua priced 402 payment required/, "no caller: a dash");
  assert.match(text, /Who read your articles 2 article reads/, "a failed read is not a read");
  assert.match(text, /Acme AI buyer ?: 1 read/);
});

Deno.test("a 402 is labelled a price quote, not an error; other failures stay errors", () => {
  const row = {
    at: "2026-11-15T12:00:00.000Z",
    surface: "landing",
    tool: "_landing:article",
    userAgent: "GPTBot/1.2",
    latencyMs: 3,
    status: "error",
  };
  const html = renderPage(CallsPage({
    who: WHO,
    calls: [{ ...row, httpStatus: 402 }, { ...row, httpStatus: 403 }],
    received: 2,
    surface: "",
    surfaces: ["landing"],
    readsOnly: false,
  }));
  const text = textOf(html);
  assert.match(text, /GPTBot\/1\.2 priced 402 payment required/);
  assert.match(text, /GPTBot\/1\.2 error 403/);
  const tags = [...html.matchAll(/<span class="tag (\w+)">(\w+)<\/span>/g)].map((
    m,
  ) => [m[1], m[2]]);
  assert.deepEqual(tags, [["quote", "priced"], ["err", "error"]]);
});
