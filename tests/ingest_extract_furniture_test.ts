/**
 * Furniture inside the article element that Readability keeps on some pages (issue 41): captions,
 * other stories' lists, comment calls, contact lines, bare URLs, the wire credit line; never a
 * section of the story, and never the byline as the summary.
 */
import assert from "node:assert/strict";
import { extractArticle } from "../server/domain/catalog/extract.ts";

const para = (topic: string, n = 6) =>
  `<p>${
    `The council weighed how ${topic} would change the town and wrote down every figure. `.repeat(n)
  }</p>`;
const page = (article: string, head = "") =>
  `<!doctype html><html><head><title>Harbour plan</title>${head}</head><body><main><article><h1>Harbour plan</h1>${article}</article></main></body></html>`;
const body = (article: string, head = "") =>
  extractArticle(page(article, head), "https://news.example/harbour").body;

Deno.test("photo captions go, the photo's story stays", () => {
  const b = body(
    `${
      para("the barrier")
    }<figure><img src="/a.jpg" alt=""><figcaption>Boats in the harbour on Monday. (AP Photo/Jane Roe)</figcaption></figure>` +
      `<div class="wp-caption"><img src="/b.jpg"><p class="wp-caption-text">The mayor speaks.</p></div>${
        para("the levy")
      }`,
  );
  assert.ok(!b.includes("AP Photo") && !b.includes("The mayor speaks"), b);
  assert.ok(b.includes("the barrier") && b.includes("the levy"));
});

Deno.test("a 'More News from' heading and its headlines go; a section named like it with text stays", () => {
  const more =
    `<h2>More News from The Associated Press</h2><ul><li><a href="/a">Storm batters coast</a></li><li><a href="/b">Markets rally</a></li></ul>`;
  const b = body(`${para("the barrier")}<h2>What comes next</h2>${para("the vote")}${more}`);
  assert.ok(!b.includes("More News") && !b.includes("Storm batters"), b);
  assert.ok(b.includes("## What comes next") && b.includes("the vote"));
  // "Related work" with paragraphs under it is a section of a paper, not a list of stories.
  const paper = body(`${para("the method")}<h2>Related work</h2>${para("earlier studies")}`);
  assert.ok(paper.includes("## Related work") && paper.includes("earlier studies"), paper);
  // A heading like it followed by prose stays: only lists of links go with it.
  const prose = body(`${para("the method")}<h2>Read more</h2>${para("the appendix")}`);
  assert.ok(prose.includes("the appendix"), prose);
});

Deno.test("comment calls, contact lines and bare file URLs go; a sentence that mentions a phone call stays", () => {
  const b = body(
    `${para("the barrier")}<p>Join the conversation</p><p>12 comments</p>` +
      `<p>For questions call the harbour office at (555) 123-4567.</p>` +
      `<p>https://news.example/wp-content/uploads/2024/03/plan.pdf</p>` +
      `<p>The mayor said she would call a second vote if the count was close, and that the council would meet again in April to settle the budget.</p>`,
  );
  for (const gone of ["Join the conversation", "12 comments", "(555) 123-4567", "wp-content"]) {
    assert.ok(!b.includes(gone), `${gone} in ${b}`);
  }
  assert.ok(b.includes("call a second vote"), b);
});

Deno.test("the wire credit and publication line at the top goes", () => {
  const b = body(
    `<p>The Associated Press Published Monday, March 4, 2024 at 5:12 PM</p>${para("the barrier")}`,
  );
  assert.ok(!b.includes("Published Monday"), b);
  assert.ok(b.startsWith("The council weighed"), b);
});

Deno.test("the byline paragraph is never the summary", () => {
  const x = extractArticle(
    page(
      `<p class="byline">By Ana Silva</p>${para("the barrier")}`,
      `<meta name="author" content="Ana Silva">`,
    ),
    "https://news.example/harbour",
  );
  assert.equal(x.author, "Ana Silva");
  assert.ok(x.summary.startsWith("The council weighed"), x.summary);
});

Deno.test("a desk named as a Person, or as the visible byline, is the author; a desk in <meta name=author> alone is not", () => {
  const site = `<meta property="og:site_name" content="BBC">`;
  const ld = `<script type="application/ld+json">${
    JSON.stringify({
      "@type": "NewsArticle",
      author: { "@type": "Person", name: "BBC Business desk" },
    })
  }</script>`;
  const a = (head: string, byline = "") =>
    extractArticle(page(`${byline}${para("the market")}`, head), "https://bbc.example/a").author;
  assert.equal(a(site + ld, `<p class="byline">By BBC Business desk</p>`), "BBC Business desk");
  assert.equal(a(site, `<p class="byline">By BBC Business desk</p>`), "BBC Business desk");
  assert.equal(a(site + `<meta name="author" content="BBC Business desk">`), "");
  // A person named anywhere still wins over the desk.
  assert.equal(
    a(
      site + `<meta name="author" content="Ana Silva">`,
      `<p class="byline">By BBC Business desk</p>`,
    ),
    "Ana Silva",
  );
});

Deno.test("sign-up, share and follow calls, ad labels, photo credits and copyright lines go; prose that starts alike stays", () => {
  const calls = [
    "Sign up for our morning newsletter and get the day's news in your inbox.",
    "Share this article",
    "Follow us on Twitter",
    "<strong>Advertisement</strong>",
    "Story continues below advertisement",
    "Photo: Getty Images",
    "Image source, Reuters",
    "© 2026 The Associated Press. All rights reserved.",
    "Copyright 2026 The Associated Press. All rights reserved. This material may not be published, broadcast, rewritten or redistributed.",
  ].map((t) => `<p>${t}</p>`).join("");
  const b = body(`${para("the barrier")}${calls}${para("the levy")}`);
  for (
    const gone of [
      "newsletter",
      "Share this",
      "Follow us",
      "Advertisement",
      "continues below",
      "Getty",
      "Image source",
      "rights reserved",
    ]
  ) {
    assert.ok(!b.includes(gone), `${gone}: ${b}`);
  }
  assert.ok(b.includes("the barrier") && b.includes("the levy"));
  // A sentence of the story that opens with the same words is the story.
  const story = body(
    `${
      para("the barrier")
    }<p>Subscribers to the harbour's newsletter were told first, and the council's email to residents followed two days later, after a long meeting about what the levy would cost each household over ten years.</p>` +
      `<p>Image problems dogged the project: residents called it an eyesore before a single pile was driven into the mud.</p>` +
      `<p>Follow the money on Twitter, where the council posts every invoice.</p>` +
      `<p>Sign up for the ferry service opened in May, and 500 residents registered by email alerts within a week of the launch, the council said on Monday.</p>${
        para("the levy")
      }`,
  );
  assert.ok(story.includes("Subscribers to the harbour"), story);
  assert.ok(story.includes("Image problems dogged"), story);
  assert.ok(story.includes("Follow the money"), story);
  assert.ok(story.includes("Sign up for the ferry"), story);
});
