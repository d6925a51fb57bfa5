/** Extraction metadata: JSON-LD in CDATA, title precedence, author decoys, Dublin Core, dates. */
import assert from "node:assert/strict";
import { normaliseDate, pickDate } from "../server/domain/catalog/dates.ts";
import { extractArticle } from "../server/domain/catalog/extract.ts";

const BODY = "<p>" +
  "The committee met on Tuesday to weigh the harbour plan and its costs. ".repeat(10) +
  "</p>";
const page = (head: string, body = `<article>${BODY}</article>`) =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const ld = (o: unknown) => JSON.stringify({ "@context": "https://schema.org", ...(o as object) });

Deno.test("JSON-LD wrapped in CDATA, bare or inside comments, is read", () => {
  const data = ld({
    "@type": "NewsArticle",
    headline: "H",
    datePublished: "2023-12-14T07:30:15.250Z",
    author: { "@type": "Person", name: "Dan Oak" },
  });
  const wrappers = [
    `<![CDATA[${data}]]>`,
    `\n//<![CDATA[\n${data}\n//]]>\n`,
    `/*<![CDATA[*/${data}/*]]>*/`,
  ];
  for (const w of wrappers) {
    const x = extractArticle(
      page(
        `<script type="application/ld+json">${w}</script>`,
        `<p><time datetime="2023-12-15T10:02:00Z">updated</time></p><article>${BODY}</article>`,
      ),
      "https://x.example/a",
    );
    assert.equal(x.publishedAt, "2023-12-14T07:30:15.250Z", w);
    assert.equal(x.author, "Dan Oak", w);
  }
});

Deno.test("the title is the one most kinds of source agree on, with the site's name cut off", () => {
  const t = (head: string, body = `<article>${BODY}</article>`) =>
    extractArticle(page(head, body), "https://x.example/a").title;
  const real = "Harbour council approves flood barrier";
  // A JSON-LD SEO headline loses to og:title, <title> and <h1> agreeing.
  assert.equal(
    t(
      `<title>${real} | The Herald</title><meta property="og:title" content="${real}">` +
        `<script type="application/ld+json">${
          ld({ "@type": "NewsArticle", headline: "Barrier: what it means" })
        }</script>`,
      `<article><h1>${real}</h1>${BODY}</article>`,
    ),
    real,
  );
  // A social og:title (echoed by twitter:title) loses to <title> and <h1>.
  assert.equal(
    t(
      `<title>${real} | Opinion | The Herald</title><meta property="og:title" content="You won't believe this">` +
        `<meta name="twitter:title" content="You won't believe this">`,
      `<article><h1>${real}</h1>${BODY}</article>`,
    ),
    real,
  );
  // No og:site_name: the <h1> is the piece of "<title>" before the separator.
  assert.equal(t(`<title>Zugspitze – Wikipedia</title>`, `<h1>Zugspitze</h1>${BODY}`), "Zugspitze");
  // The site's name, before or after, is cut from a lone <title>; fullwidth bars count.
  const site = `<meta property="og:site_name" content="東都新聞">`;
  assert.equal(t(`${site}<title>給食費を無償化へ｜東都新聞</title>`), "給食費を無償化へ");
  assert.equal(t(`${site}<title>東都新聞 | 給食費を無償化へ</title>`), "給食費を無償化へ");
  // An <h1> that is the site's logo is no title.
  assert.equal(
    t(
      `${site}<meta property="og:title" content="${real}">`,
      `<h1>東都新聞</h1><article>${BODY}</article>`,
    ),
    real,
  );
  // A hyphen inside a headline is not a separator when nothing says the rest is a site.
  assert.equal(t(`<title>Covid-19 - a year on</title>`), "Covid-19 - a year on");
});

Deno.test("a site name or desk in <meta name=author> is a decoy; better sources win", () => {
  const a = (head: string, body = `<article>${BODY}</article>`) =>
    extractArticle(page(head, body), "https://x.example/a").author;
  const graph = ld({
    "@graph": [
      { "@type": "WebPage", name: "P" },
      { "@type": "Article", author: { "@id": "#p1" } },
      { "@type": "Person", "@id": "#p1", name: "Hannah Birch" },
    ],
  });
  assert.equal(
    a(`<meta name="author" content="admin"><script type="application/ld+json">${graph}</script>`),
    "Hannah Birch",
    "a JSON-LD author given by @id",
  );
  assert.equal(
    a(
      `<meta name="author" content="The Herald"><meta property="og:site_name" content="The Herald">`,
      `<article><p class="byline">By <a rel="author" href="/p/m">Megan Hartley</a></p>${BODY}</article>`,
    ),
    "Megan Hartley",
  );
  assert.equal(
    a(`<meta name="author" content="Redaktion"><meta name="DC.creator" content="Katrin Vogel">`),
    "Katrin Vogel",
  );
  assert.equal(
    a(
      `<meta name="author" content="Redazione Gazzetta"><meta property="og:site_name" content="Gazzetta">` +
        `<script type="application/ld+json">${
          ld({ "@type": "NewsArticle", author: { "@type": "Organization", name: "Gazzetta" } })
        }</script>`,
    ),
    "",
    "an organisation and a desk are no author",
  );
  assert.equal(a(`<meta name="author" content="GOV.EXAMPLE">`), "", "a domain is no author");
  assert.equal(
    a(`<meta name="author" content="田中 健太">`),
    "田中 健太",
    "a real meta author stays",
  );
  assert.equal(
    a(`<meta property="article:author" content="https://facebook.com/x"><meta name="author" content="Ann Lee">`),
    "Ann Lee",
  );
});

Deno.test("Dublin Core title, creator and date are read", () => {
  const x = extractArticle(
    page(
      `<title>The last lamplighters — Features — Northern Review</title>` +
        `<meta name="DC.title" content="The last lamplighters"><meta name="DC.creator" content="Imogen Clarke">` +
        `<meta name="DC.date" content="2021-11-20">`,
    ),
    "https://x.example/a",
  );
  assert.deepEqual([x.title, x.author, x.publishedAt], [
    "The last lamplighters",
    "Imogen Clarke",
    "2021-11-20T00:00:00.000Z",
  ]);
});

Deno.test("normaliseDate() keeps milliseconds and reads the zone spellings pages use", () => {
  const cases: [string, string | null][] = [
    ["2024-02-14T06:30:12.250", "2024-02-14T06:30:12.250Z"],
    ["2024-02-14T06:30:12,250+01:00", "2024-02-14T05:30:12.250Z"],
    ["2024-02-14T06:30:12+01", "2024-02-14T05:30:12.000Z"],
    ["2024-02-14T06:30:12.5 UTC", "2024-02-14T06:30:12.500Z"],
    ["20240214T063012Z", "2024-02-14T06:30:12.000Z"],
    ["2024年1月22日 11時15分", "2024-01-22T11:15:00.000Z"],
    ["18.01.2024, 06:45 Uhr", "2024-01-18T06:45:00.000Z"],
    ["2024-02-30", null],
    ["2024-02-14T25:00:00", null],
    ["0099-01-01", null],
  ];
  for (const [raw, want] of cases) assert.equal(normaliseDate(raw), want, raw);
});

Deno.test("pickDate() gives a zone-less time the offset the page states for the same minute", () => {
  assert.equal(
    pickDate(["2024-02-14T06:30:12.250", "2024-02-14T06:30:12+01:00"]),
    "2024-02-14T05:30:12.250Z",
  );
  assert.equal(
    pickDate(["2024-02-14T06:30:12.250", "2024-02-14T09:00:00+01:00"]),
    "2024-02-14T06:30:12.250Z",
    "another minute lends nothing: UTC",
  );
  assert.equal(
    pickDate(["2024-03-05", "2024-03-05T23:30:00-05:00"]),
    "2024-03-06T04:30:00.000Z",
    "a bare date takes the time written for that day",
  );
  assert.equal(pickDate(["2024-03-05", "2024-03-07T10:00:00Z"]), "2024-03-05T00:00:00.000Z");
  assert.equal(pickDate([undefined, "nonsense", "2024-03-05"]), "2024-03-05T00:00:00.000Z");
  assert.equal(pickDate([null, "soon"]), null);
});

Deno.test("a newsletter box or print footer longer than a short story does not replace it", () => {
  const story =
    "<p>The library will stay open until 10pm on weekdays during exams, the university said.</p>" +
    "<p>More than 2,300 students signed the petition asking for the later closing time.</p>";
  const box =
    "Join thousands of readers and get the week's campus news in your inbox every Friday. ".repeat(
      4,
    );
  const x = extractArticle(
    page(
      "<title>Library</title>",
      `<div class="cookie-banner"><p>${
        "We use cookies to improve your experience. ".repeat(6)
      }</p></div>` +
        `<div class="col"><h1>Library</h1><div class="story">${story}</div>` +
        `<div class="newsletter-signup"><p>${box}</p></div>` +
        `<div class="print-footer"><p>${
          "Printed from the Courier. Not to be reproduced. ".repeat(6)
        }</p></div></div>`,
    ),
    "https://x.example/a",
  );
  assert.match(x.body, /2,300 students/);
  assert.doesNotMatch(x.body, /inbox|Printed from|cookies/);
});

Deno.test("clutter words in a class never take the article itself", () => {
  const x = extractArticle(
    page(
      "<title>On work</title>",
      `<div class="commentary-body">${BODY}</div><div class="subscriber-content">${BODY}</div>` +
        `<div class="newsletter">Sign up for our newsletter.</div>`,
    ),
    "https://x.example/a",
  );
  assert.equal(x.body.match(/harbour plan/g)?.length, 20, "both halves of the story are kept");
  assert.doesNotMatch(x.body, /Sign up/);
});

Deno.test("hostile or empty pages give empty fields, not errors", () => {
  const selfRef = ld({ "@type": "Article", "@id": "#a", author: { "@id": "#a" } });
  for (
    const html of [
      "",
      "\u0000\uFFFD<<>>",
      page(`<script type="application/ld+json">${selfRef}</script>`),
      page(`<script type="application/ld+json"><![CDATA[ {"@graph": ${"[".repeat(500)}</script>`),
    ]
  ) {
    const x = extractArticle(html, "https://x.example/a");
    assert.equal(typeof x.body, "string");
    assert.equal(typeof x.author, "string");
  }
});

Deno.test("a Person in structured data is the author even when the site bears the name", () => {
  const a = (head: string, body = `<article>${BODY}</article>`) =>
    extractArticle(page(head, body), "https://x.example/a").author;
  const site = `<meta property="og:site_name" content="Kiran Rao">`;
  const person = (name: string) =>
    `<script type="application/ld+json">${
      ld({ "@type": "BlogPosting", author: [{ "@type": "Person", name }] })
    }</script>`;
  assert.equal(a(`${site}${person("Kiran Rao")}`), "Kiran Rao", "the author is the site");
  assert.equal(
    a(`${site}${person("Kiran Rao")}<meta name="author" content="Kiran Rao">`),
    "Kiran Rao",
  );
  // The evidence counts for every source: a Person publisher backs <meta name=author>.
  assert.equal(
    a(
      `${site}<meta name="author" content="Kiran Rao"><script type="application/ld+json">${
        ld({ "@type": "Article", publisher: { "@type": "Person", name: "Kiran Rao" } })
      }</script>`,
    ),
    "Kiran Rao",
  );
  assert.equal(
    a(`<meta property="og:site_name" content="Rao">${person("Kiran Rao")}`),
    "Kiran Rao",
    "a Person whose name holds the site's",
  );
  // With no evidence either way, the site's own name is kept when nothing else names anyone...
  assert.equal(a(`${site}<meta name="author" content="Kiran Rao">`), "Kiran Rao");
  // ...and passed over when something does.
  assert.equal(
    a(`${site}<meta name="author" content="Kiran Rao"><meta name="DC.creator" content="Ann Lee">`),
    "Ann Lee",
  );
  // Highwire's citation_author names people ("Last, First").
  assert.equal(
    a(`<meta property="og:site_name" content="Elena Marsh"><meta name="citation_author" content="Marsh, Elena">`),
    "Elena Marsh",
  );
  // Evidence of an organisation: its words, or JSON-LD typing it so.
  const herald = `<meta property="og:site_name" content="The Herald">`;
  assert.equal(a(`${herald}<meta name="author" content="The Herald">`), "");
  assert.equal(a(`${herald}<meta name="author" content="Herald Staff">`), "");
  assert.equal(
    a(`${site}<script type="application/ld+json">${
      ld({ "@type": "Article", author: { "@type": "Organization", name: "Kiran Rao" } })
    }</script>`),
    "",
  );
});

Deno.test("the title is the article's headline, not the site header, the platform or a URL", () => {
  const t = (head: string, body: string) =>
    extractArticle(page(head, body), "https://blog.example/p").title;
  const real = "Polling versus push for webhooks";
  // A site title in the page header, with no og:site_name to name it.
  assert.equal(
    t(
      `<title>${real} | Priya's notes</title>`,
      `<header class="site-header"><h1><a href="/">Priya's notes</a></h1></header><div class="post"><h2>x</h2>${BODY}</div>`,
    ),
    real,
  );
  assert.equal(
    t(
      `<title>${real} | Priya's notes</title>`,
      `<div><h1 class="site-title"><a href="/">Priya's notes</a></h1></div><div class="post">${BODY}</div>`,
    ),
    real,
  );
  // A hosting platform's name, alone or as a suffix.
  assert.equal(
    t(
      `<meta property="og:title" content="Medium"><title>${real} | by Ann | Medium</title>`,
      `<h1>${real}</h1>${BODY}`,
    ),
    real,
  );
  // A URL for a title loses to the page's heading; with no title at all the heading is used.
  assert.equal(
    t(
      `<title>https://blog.example/p</title><meta property="og:title" content="blog.example/p">`,
      `<article><h1>${real}</h1>${BODY}</article>`,
    ),
    real,
  );
  assert.equal(t("", `<div><h2>${real}</h2>${BODY}</div>`), real);
  // A documentation tool's link mark is not part of the heading.
  assert.equal(
    t("", `<article><h1>${real}<a class="headerlink" href="#x">¶</a></h1>${BODY}</article>`),
    real,
  );
  // The site's name is cut only when what is left names the article.
  assert.equal(
    t(
      `<meta property="og:site_name" content="Acme"><title>Home | Acme</title>`,
      `<div>${BODY}</div>`,
    ),
    "Home | Acme",
  );
});

Deno.test("a lone <title> is cut as Readability cuts it; the <h1> names the site's end of it", () => {
  const t = (head: string, body = `<div>${BODY}</div>`) =>
    extractArticle(page(head, body), "https://x.example/a").title;
  assert.equal(
    t(`<title>Why we moved to Postgres – Acme Blog</title>`),
    "Why we moved to Postgres",
  );
  assert.equal(
    t(`<title>Acme Blog | Why we moved to Postgres</title>`),
    "Why we moved to Postgres",
  );
  // Four words or fewer left: the whole title, as Readability keeps it.
  assert.equal(t(`<title>Tides – Acme Blog</title>`), "Tides – Acme Blog");
  // A site-wide og:title loses once the <title> shows it beside the headline.
  assert.equal(
    t(
      `<title>Council votes – Parish News</title><meta property="og:title" content="Parish News">`,
      `<div id="logo"><a href="https://x.example/">Parish News</a></div><h2 class="entry-title">Council votes</h2>${BODY}`,
    ),
    "Council votes",
  );
});

Deno.test("a site's name counts inside an author's only as whole words", () => {
  const a = (head: string) => extractArticle(page(head), "https://x.example/a").author;
  const site = `<meta property="og:site_name" content="AP">`;
  assert.equal(a(`${site}<meta name="author" content="Aparna Rao">`), "Aparna Rao");
  assert.equal(a(`${site}<meta name="author" content="AP Staff">`), "");
});

Deno.test("a title that looks like a domain but names a thing stays", () => {
  const x = extractArticle(
    page(`<title>Node.js</title>`, `<article><h1>Node.js</h1>${BODY}</article>`),
    "https://docs.example/node",
  );
  assert.equal(x.title, "Node.js");
});

Deno.test("entities left encoded in JSON-LD or attributes are decoded, numeric ones included", () => {
  const x = extractArticle(
    page(
      `<script type="application/ld+json">${
        ld({
          "@type": "Article",
          headline: "Why we&#8217;re moving &#x2013; and how",
          author: "Ann &amp; Bo",
        })
      }</script><title>Why we’re moving – and how</title>`,
    ),
    "https://x.example/a",
  );
  assert.equal(x.title, "Why we’re moving – and how");
  assert.equal(x.author, "Ann & Bo");
});

Deno.test("a leading 'By' in a meta author is not part of the name", () => {
  const x = extractArticle(
    page(`<meta name="author" content="By Ann Lee">`),
    "https://x.example/a",
  );
  assert.equal(x.author, "Ann Lee");
  const von = extractArticle(
    page(`<meta name="author" content="Von Miller">`),
    "https://x.example/a",
  );
  assert.equal(von.author, "Von Miller");
});
