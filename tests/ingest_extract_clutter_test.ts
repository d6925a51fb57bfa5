/** Clutter removal by whole words of class and id names, never a section of the article. */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { clutterName, headingId, nameTokens } from "../server/domain/catalog/clutter.ts";
import { extractArticle } from "../server/domain/catalog/extract.ts";

const para = (topic: string, n = 6) =>
  `<p>${
    `The team measured how ${topic} behaves under load and wrote down every number. `.repeat(n)
  }</p>`;
const page = (body: string) =>
  `<!doctype html><html><head><title>Notes</title></head><body>${body}</body></html>`;

Deno.test("class and id names split into whole words, camelCase included", () => {
  assert.deepEqual(nameTokens("share-buttons"), ["share", "buttons"]);
  assert.deepEqual(nameTokens("post-shared-changeset"), ["post", "shared", "changeset"]);
  assert.deepEqual(nameTokens("socialShareBar"), ["social", "share", "bar"]);
  assert.deepEqual(nameTokens("user_content__Related_work"), [
    "user",
    "content",
    "related",
    "work",
  ]);
  assert.equal(clutterName("share-buttons"), "section");
  assert.equal(clutterName("newsletter-signup"), "box");
  assert.equal(clutterName("cookieConsent"), "box");
  assert.equal(clutterName("top-ad-slot"), "box");
  assert.equal(clutterName("sign-up-form"), "box");
  for (
    const n of [
      "post-shared-changeset",
      "polling-versus-push",
      "shared-memory",
      "header",
      "adapter",
      "download",
      "following-up-on",
    ]
  ) {
    assert.equal(clutterName(n), null, n);
  }
});

Deno.test("an id made from its heading's words is the section's, not a name", () => {
  const { document } = parseHTML(
    `<html><body><section id="related-work"><h2>Related work<a class="headerlink">¶</a></h2><p>x</p></section>
     <h2 id="follow-up">Follow-up</h2><h2 id="user-content-related-work">Related work</h2>
     <h2 id="related-work-2">Related work</h2><div id="comments"><h2>Comments</h2></div>
     <div id="share-box"><h3>Share this</h3></div><h2 id="feedback">Feedback</h2>
     <section id="references"><h2>References</h2><p>y</p></section>
     <h3 id="follow-up-work">4.2 Follow-up work</h3><div id="related-posts"><div><h3>Related work</h3></div></div></body></html>`,
  );
  const byId = (id: string) => document.getElementById(id) as unknown as Element;
  for (
    const id of [
      "related-work",
      "follow-up",
      "user-content-related-work",
      "related-work-2",
      "feedback",
      "references",
      "follow-up-work",
    ]
  ) {
    assert.ok(headingId(byId(id)), id);
  }
  // One word stays suspect, another heading is no evidence, a heading deeper down is not its own.
  for (const id of ["comments", "share-box", "related-posts"]) assert.ok(!headingId(byId(id)), id);
});

Deno.test("sections whose ids come from headings are never lost (Hugo, Sphinx, Docusaurus, GitHub)", () => {
  const sections = [
    ["h2", "shared-memory", "Shared memory", "shared memory"],
    ["section", "related-work", "Related work", "prior systems"],
    ["h2", "polling-versus-push", "Polling versus push", "polling"],
    ["section", "follow-up", "Follow-up", "the follow-up study"],
    ["h2", "user-content-comments-and-replies", "Comments and replies", "reply threads"],
    ["h2", "rating-scales", "Rating scales", "rating scales"],
  ];
  const body = sections.map(([tag, id, heading, topic]) =>
    tag === "section"
      ? `<section id="${id}" class="section"><h2>${heading}<a class="headerlink" href="#${id}">¶</a></h2>${
        para(topic)
      }${para(topic)}</section>`
      : `<h2 id="${id}">${heading}</h2>${para(topic)}${para(topic)}`
  ).join("");
  const x = extractArticle(
    page(`<article><h1>Notes</h1>${body}<div class="share-buttons">Share on X</div></article>
      <div id="post-shared-changeset">${para("the shared changeset", 12)}</div>`),
    "https://docs.example/notes",
  );
  for (const [, , heading, topic] of sections) {
    assert.match(x.body, new RegExp(`## ${heading}`), heading);
    assert.match(x.body, new RegExp(`how ${topic} behaves`), topic);
  }
  assert.doesNotMatch(x.body, /Share on X/);
});

Deno.test("a box named like clutter that holds a large share of the article stays", () => {
  const x = extractArticle(
    page(
      `<article><h1>Notes</h1>${para("the queue")}<div class="related">${
        para("the related queue", 8)
      }</div><div class="related-links"><a href="/a">Another post</a></div></article>`,
    ),
    "https://blog.example/notes",
  );
  assert.match(x.body, /the related queue behaves/);
  assert.doesNotMatch(x.body, /Another post/);
});

Deno.test("a paywall wrapper round most of the article stays, a sign-up card in it goes", () => {
  const x = extractArticle(
    page(
      `<nav>${"<a href='/x'>Section link</a> ".repeat(200)}</nav><article><h1>Notes</h1>${
        para("the lead")
      }<div class="paywall">${
        para("the queue", 10)
      }<div class="newsletter-signup">Get the newsletter every week.</div></div></article>`,
    ),
    "https://news.example/notes",
  );
  assert.match(x.body, /how the queue behaves/);
  assert.doesNotMatch(x.body, /Get the newsletter/);
});
