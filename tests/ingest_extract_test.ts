/** Extraction and splitting units: metadata precedence, dates, body format, book chapters. */
import assert from "node:assert/strict";
import { splitMarkdown, splitPdf, splitPlainText } from "../server/domain/catalog/book_split.ts";
import { normaliseDate } from "../server/domain/catalog/dates.ts";
import { extractArticle } from "../server/domain/catalog/extract.ts";
import { htmlToText } from "../server/domain/catalog/html_text.ts";
import { expectedBody, pageSpec, renderPage } from "./fixtures/article_pages.ts";

const LONG = "The committee met on Tuesday to weigh the harbour plan and its costs. ".repeat(8);

Deno.test("extractArticle() reads every metadata style the generated pages use", () => {
  for (let i = 0; i < 8; i++) {
    const p = pageSpec(i);
    const x = extractArticle(
      renderPage(p, "https://news.example"),
      `https://news.example${p.path}`,
    );
    assert.equal(x.title, p.title, p.style);
    assert.equal(x.author, p.author, p.style);
    assert.equal(x.publishedAt, p.publishedAt, p.style);
    assert.equal(x.summary, p.summary, p.style);
    assert.deepEqual(x.tags, p.tags, p.style);
    assert.equal(x.body, expectedBody(p), p.style);
    assert.equal(x.canonicalUrl, `https://news.example${p.path}`);
  }
});

Deno.test("extractArticle() lets JSON-LD win over OpenGraph and meta (title aside), and skips broken JSON-LD blocks", () => {
  const html = `<html><head><title>Site | Tag title</title>
    <script type="application/ld+json">{ broken json</script>
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"Organization","name":"Org"},
      {"@type":"NewsArticle","headline":"LD headline","author":["Ann Lee",{"@type":"Person","name":"Bo Chan"}],
       "datePublished":"2024-03-05T10:00:00+01:00","keywords":["Ports","Budget"],"description":"LD summary"}]}</script>
    <meta property="og:title" content="OG title"><meta property="og:description" content="OG summary">
    <meta property="article:published_time" content="2020-01-01T00:00:00Z">
    <meta name="author" content="Meta Author"><meta name="keywords" content="meta, words">
    <link rel="canonical" href="/story?id=7"></head>
    <body><article><p class="byline">By Someone Else</p><p>${LONG}</p><h3>What next</h3><p>${LONG}</p></article></body></html>`;
  const x = extractArticle(html, "https://news.example/path/page");
  // No source agrees with another, so og:title leads: a JSON-LD headline is often an SEO variant.
  assert.equal(x.title, "OG title");
  assert.equal(x.author, "Ann Lee, Bo Chan");
  assert.equal(x.publishedAt, "2024-03-05T09:00:00.000Z");
  assert.equal(x.summary, "LD summary");
  assert.deepEqual(x.tags, ["Ports", "Budget"]);
  assert.equal(x.canonicalUrl, "https://news.example/story?id=7");
  assert.match(x.body, /\n\n## What next\n\n/);
  assert.ok(!x.body.includes("Someone Else"), "the byline line is not body text");
});

Deno.test("extractArticle() falls back to OpenGraph, then meta, then the page itself", () => {
  const og = extractArticle(
    `<html><head><meta property="og:title" content="OG only">
     <meta property="article:author" content="https://facebook.com/someone">
     <meta property="article:author" content="Real Name"></head>
     <body><article><p>${LONG}</p></article></body></html>`,
    "https://x.example/a",
  );
  assert.equal(og.title, "OG only");
  assert.equal(og.author, "Real Name", "a profile URL is not an author name");
  const bare = extractArticle(
    `<html><head><title>Just a title</title></head><body><div><p>${LONG}</p></div></body></html>`,
    "https://x.example/b",
  );
  assert.equal(bare.title, "Just a title");
  assert.equal(bare.publishedAt, null);
  assert.deepEqual(bare.tags, []);
  assert.equal(bare.canonicalUrl, null);
  assert.ok(bare.body.startsWith("The committee met"));
});

Deno.test("extractArticle() never keeps script, style or markup in the body", () => {
  const x = extractArticle(
    `<html><body><article><p>${LONG}</p><script>alert("x")</script><style>p{}</style>
     <p>Safe <b>bold</b> &lt;tag&gt; text.</p></article></body></html>`,
    "https://x.example/c",
  );
  assert.ok(!x.body.includes("alert"));
  assert.ok(!x.body.includes("p{}"));
  assert.match(x.body, /Safe bold <tag> text\./);
});

Deno.test("normaliseDate() turns the dates pages write into ISO 8601 UTC", () => {
  const cases: [string, string | null][] = [
    ["2024-03-05", "2024-03-05T00:00:00.000Z"],
    ["2024-03-05T10:00:00", "2024-03-05T10:00:00.000Z"],
    ["2024-03-05T10:00:00+0200", "2024-03-05T08:00:00.000Z"],
    ["2024-03-05 10:00:00-05:00", "2024-03-05T15:00:00.000Z"],
    ["2024-03-05T10:00:00.123456Z", "2024-03-05T10:00:00.123Z"],
    ["Tue, 05 Mar 2024 10:00:00 GMT", "2024-03-05T10:00:00.000Z"],
    ["March 5, 2024", "2024-03-05T00:00:00.000Z"],
    ["yesterday", null],
    ["2024-13-45", null],
    ["0001-01-01", null],
    ["", null],
  ];
  for (const [raw, want] of cases) assert.equal(normaliseDate(raw), want, raw);
});

Deno.test("htmlToText() makes h2/h3 headings '## ' lines and survives deep nesting", () => {
  assert.equal(
    htmlToText(
      "<h2>One</h2><p>a <i>b</i></p><ul><li>c</li><li>d</li></ul><h3>Two</h3><p>e<br>f</p>",
    ),
    "## One\n\na b\n\nc\n\nd\n\n## Two\n\ne f",
  );
  const deep = "<div>".repeat(10_000) + "deep text" + "</div>".repeat(10_000);
  // The walk stops 200 levels down (server/domain/catalog/html_text.ts), so 10,000 cost no more than 200.
  assert.equal(htmlToText(deep), "");
  assert.equal(htmlToText("<div>".repeat(150) + "deep text" + "</div>".repeat(150)), "deep text");
});

Deno.test("splitMarkdown() splits at the shallowest repeated heading level", () => {
  const single = splitMarkdown("# Title\n\nIntro.\n\n## A\n\nText a.\n\n## B\n\nText b.\n", "T");
  assert.deepEqual(single.map((c) => c.title), ["A", "B"]);
  const top = splitMarkdown("# One\n\nx\n\n## Sub\n\ny\n\n# Two\n\nz\n", "T");
  assert.deepEqual(top.map((c) => [c.title, c.body]), [["One", "x\n\n## Sub\n\ny"], ["Two", "z"]]);
  const none = splitMarkdown("Just text.\n\nMore text.", "Plain");
  assert.deepEqual(none, [{ title: "Plain", body: "Just text.\n\nMore text." }]);
});

Deno.test("splitPlainText() ignores table-of-contents headings with no text under them", () => {
  const text = "Chapter 1\nChapter 2\n\nChapter 1\n\nFirst.\n\nChapter 2\n\nSecond.";
  assert.deepEqual(splitPlainText(text, "T").map((c) => [c.title, c.body]), [
    ["Chapter 1", "First."],
    ["Chapter 2", "Second."],
  ]);
});

Deno.test("splitPdf() keeps a long front matter and ignores outline entries pointing nowhere", () => {
  const front = "word ".repeat(50);
  const chapters = splitPdf([front, "one", "two"], [
    { title: "One", page: 1 },
    { title: "Two", page: 2 },
    { title: "Ghost", page: 99 },
  ], "Book");
  assert.deepEqual(chapters.map((c) => c.title), ["Front matter", "One", "Two"]);
});
