/**
 * The console's passages playground over POST /api/publisher/playground/passages. The positive
 * tests need that route (added on the management API's branch); until it exists they fail, and
 * the page shows the API's 404 as a problem.
 */
import assert from "node:assert/strict";
import { passageOf } from "../server/pages/console/playground.ts";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";
import { demoVisitor, flushCalls } from "./console_activity_helpers.ts";
import { testFolio } from "./helpers.ts";

Deno.test("the playground renders its form for a new publisher", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/playground");
  assert.equal(page.status, 200);
  assert.match(page.html, /aria-current="page">Passages playground</);
  assert.match(page.html, /<form method="post" action="\/publisher\/playground">/);
  assert.match(page.html, /<input id="query" name="query" type="search" required/);
  assert.doesNotMatch(page.html, /role="alert"/);
});

Deno.test("a refused query shows the API's problem beside the typed values; a forged form is refused", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/playground");
  // Too long for the API (and, until the route exists, unknown to it: 404).
  const long = "q".repeat(201);
  const refused = await visitor.post("/publisher/playground", {
    _csrf: hidden(page.html),
    query: long,
    limit: "7",
  });
  assert.ok([400, 404].includes(refused.status), String(refused.status));
  assert.match(refused.html, /class="problem" role="alert">[^<]+</);
  assert.match(refused.html, new RegExp(`value="${long}"`));
  assert.match(refused.html, /id="limit"[^>]*value="7"/);
  const forged = await visitor.post("/publisher/playground", { _csrf: "forged", query: "x" });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, in words (tests/form_expired_test.ts).
  assert.match(textOf(forged.html), /This form has expired Nothing was changed/);
});

Deno.test("passages are read from whatever fields the API returns", () => {
  const rest = passageOf({
    chunkId: "a#1",
    section: "Costs",
    text: "Heat pumps move heat.",
    score: 0.8123,
    article: { id: "a", title: "Heat pumps", url: "https://demo.localhost/heat" },
    license: {
      licensor: "The Demo Ledger",
      rights: {
        summarization: "granted",
        display: "denied",
        rag: "granted",
        fine_tuning: "denied",
      },
      pricingUsdCents: { summarization: 0.2, display: 2, rag: 0.5 },
    },
    note: "Charged as one rag read",
  });
  assert.deepEqual(rest, {
    title: "Heat pumps",
    url: "https://demo.localhost/heat",
    text: "Heat pumps move heat.",
    score: 0.8123,
    section: "Costs",
    notes: [
      "granted: summarization, rag; denied: display, fine-tuning",
      "retrieval $0.005 a read",
      "Charged as one rag read",
    ],
  });
  const flat = passageOf({ title: "T", url: "javascript:alert(1)", text: "x", score: "high" });
  assert.deepEqual(flat, {
    title: "T",
    url: null,
    text: "x",
    score: null,
    section: null,
    notes: [],
  });
  assert.equal(passageOf({}).title, "(untitled)");
});

// Needs POST /api/publisher/playground/passages: fails on a branch without it.
Deno.test("the playground shows the demo's passages as a buyer would see them, logged as a playground call", async () => {
  await using folio = await testFolio();
  while (await folio.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* embed all */ }
  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/playground");
  const result = await visitor.post("/publisher/playground", {
    _csrf: hidden(page.html),
    query: "heat pumps",
    limit: "3",
  });
  assert.equal(result.status, 200, textOf(result.html));
  const text = textOf(result.html);
  assert.match(text, /[123] passages?/);
  assert.match(result.html, /<ol class="passages">/);
  assert.match(
    result.html,
    /<a href="https?:\/\/[^"]+">[^<]+<\/a>/,
    "each passage links its article",
  );
  assert.match(text, /Score \d+\.\d{3}/);
  assert.match(text, /granted: /);
  assert.match(result.html, /<summary>The API's answer as returned<\/summary>/);
  assert.match(result.html, /value="heat pumps"/);
  await flushCalls(folio);
  const calls = textOf((await visitor.get("/publisher/calls")).html);
  assert.match(calls, /Retrieve passages \(playground\) Console/);

  const other = await consoleSignUp(folio);
  const theirs = await other.visitor.post("/publisher/playground", {
    _csrf: hidden((await other.visitor.get("/publisher/playground")).html),
    query: "heat pumps",
  });
  assert.equal(theirs.status, 200);
  assert.match(textOf(theirs.html), /No passages/);
  assert.doesNotMatch(theirs.html, /demo\.localhost/);
});
