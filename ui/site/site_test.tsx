import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { blocks, contrast, longDate, palette, safeColor, safeFont, safeHref } from "./brand.ts";
import { SiteArticle, SiteBook, SiteError, SiteHome, SiteNotFound, SiteTopic } from "./mod.ts";
import { renderSite } from "./render.ts";
import {
  SAMPLE_CARDS,
  sampleArticle,
  sampleBook,
  sampleBrand,
  sampleChapter,
  sampleHome,
  sampleTopic,
} from "./testing.ts";

const HOSTILE = `</script><script>alert("x")</script><img src=x onerror=alert(1)>`;

function dom(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

function texts(doc: Document, selector: string): string[] {
  return [...doc.querySelectorAll(selector)].map((e) => e.textContent?.trim() ?? "");
}

/** The JSON-LD block's raw text (what the browser's script element would hold). */
function ldText(html: string): string {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, "the page carries JSON-LD");
  return m[1];
}

Deno.test("the front page lists the latest articles, topics, books and paging", () => {
  const html = renderSite(<SiteHome {...sampleHome()} />);
  assert.ok(html.startsWith('<!doctype html><html lang="en">'));
  const doc = dom(html);
  assert.equal(doc.querySelector("title")?.textContent, "The Harbour Ledger");
  assert.equal(
    doc.querySelector('link[rel="license"]')?.getAttribute("href"),
    "https://news.example/license.xml",
  );
  assert.equal(
    doc.querySelector('link[rel="license"]')?.getAttribute("type"),
    "application/rsl+xml",
  );
  assert.equal(doc.querySelector('a.skip[href="#main"]')?.textContent, "Skip to content");
  assert.ok(doc.querySelector("main#main"));
  assert.deepEqual(texts(doc, ".site-nav a"), ["Latest", "Topics", "Books", "License terms"]);
  assert.equal(doc.querySelector('.site-nav a[aria-current="page"]')?.textContent, "Latest");
  assert.deepEqual(texts(doc, ".stories h3 a"), SAMPLE_CARDS.map((c) => c.title));
  assert.match(html, /15 November 2026/);
  assert.match(html, /datetime="2026-11-15T07:30:00.000Z"/);
  assert.deepEqual(texts(doc, ".topics a").slice(0, 2), ["energy", "climate"]);
  assert.equal(doc.querySelector(".topics a")?.getAttribute("href"), "/topics/energy");
  assert.equal(doc.querySelector(".books a")?.getAttribute("href"), "/books/bk_tides");
  assert.ok(doc.querySelector("#topics") && doc.querySelector("#books"));
  // Page 1: only "Older", as rel=next, in the page and its head.
  assert.equal(doc.querySelector('a[rel="prev"]'), null);
  assert.equal(doc.querySelector('.pager a[rel="next"]')?.getAttribute("href"), "/?page=2");
  assert.equal(doc.querySelector('.pager a[rel="next"]')?.textContent, "Older →");
  assert.equal(doc.querySelector('link[rel="next"]')?.getAttribute("href"), "/?page=2");
  // The footer says how the content is licensed.
  assert.match(doc.querySelector("footer")!.textContent!, /Content licensed for AI through Folio/);
  assert.deepEqual(
    [...doc.querySelectorAll("footer a")].map((a) => a.getAttribute("href")),
    ["https://news.example/terms", "https://news.example/license.xml"],
  );
  // No script at all on a list page, and no external resources.
  assert.doesNotMatch(html, /<script/);
  assert.doesNotMatch(html, /<link[^>]+stylesheet|@import|url\(/);
});

Deno.test("list pages link Newer (rel=prev) and Older (rel=next)", () => {
  const home2 = dom(renderSite(
    <SiteHome {...sampleHome({ paging: { page: 2, hasNext: false, basePath: "/" } })} />,
  ));
  assert.equal(home2.querySelector('.pager a[rel="prev"]')?.getAttribute("href"), "/");
  assert.equal(home2.querySelector('.pager a[rel="prev"]')?.textContent, "← Newer");
  assert.equal(home2.querySelector('a[rel="next"]'), null);
  assert.match(home2.querySelector("h1")!.textContent!, /page 2/);

  const topic = dom(renderSite(<SiteTopic {...sampleTopic()} />));
  assert.equal(topic.querySelector("h1")?.textContent, "energy");
  assert.equal(
    topic.querySelector('.pager a[rel="prev"]')?.getAttribute("href"),
    "/topics/energy",
  );
  assert.equal(
    topic.querySelector('.pager a[rel="next"]')?.getAttribute("href"),
    "/topics/energy?page=3",
  );
  assert.equal(
    topic.querySelector('link[rel="prev"]')?.getAttribute("href"),
    "/topics/energy",
  );
  // Books are only in the navigation where the page knows there are some.
  assert.deepEqual(texts(topic, ".site-nav a"), ["Latest", "Topics", "License terms"]);

  const single = dom(renderSite(
    <SiteHome {...sampleHome({ paging: { page: 1, hasNext: false, basePath: "/" } })} />,
  ));
  assert.equal(single.querySelector(".pager"), null, "one page needs no pager");
});

Deno.test("empty states: no articles yet, a topic without articles, no topics", () => {
  const home = dom(renderSite(
    <SiteHome
      {...sampleHome({
        latest: [],
        topics: [],
        books: [],
        paging: { page: 1, hasNext: false, basePath: "/" },
      })}
    />,
  ));
  assert.match(home.querySelector(".empty")!.textContent!, /No articles yet\./);
  assert.match(home.querySelector("#topics")!.textContent!, /No topics yet\./);
  assert.equal(home.querySelector("#books"), null);
  assert.deepEqual(texts(home, ".site-nav a"), ["Latest", "Topics", "License terms"]);

  const topic = dom(renderSite(
    <SiteTopic
      {...sampleTopic({
        tag: "tides",
        articles: [],
        paging: { page: 1, hasNext: false, basePath: "/topics/tides" },
      })}
    />,
  ));
  assert.match(topic.querySelector(".empty")!.textContent!, /No articles about tides yet\./);
  assert.equal(topic.querySelector(".stories"), null);

  const book = dom(renderSite(<SiteBook {...sampleBook({ chapters: [] })} />));
  assert.match(book.querySelector(".empty")!.textContent!, /No chapters yet\./);
});

Deno.test("hostile titles, bodies, tags and paths are text, never markup", () => {
  const card = { ...SAMPLE_CARDS[1], title: HOSTILE, summary: HOSTILE, author: HOSTILE };
  const hostile = {
    ...card,
    tags: [HOSTILE],
    path: "javascript:alert(1)",
  };
  const html = renderSite(
    <SiteHome
      {...sampleHome({
        brand: sampleBrand({ name: HOSTILE, description: HOSTILE }),
        latest: [hostile, { ...card, path: "/\t/evil.example/x" }, { ...card, path: "//evil" }],
        topics: [{ tag: HOSTILE, count: 1 }],
        books: [{ id: HOSTILE, title: HOSTILE, author: HOSTILE, chapters: 1 }],
      })}
    />,
  );
  assert.doesNotMatch(html, /<script|<img|javascript:/i);
  assert.match(html, /&lt;\/script>&lt;script>alert/);
  const doc = dom(html);
  assert.deepEqual(
    [...doc.querySelectorAll(".stories h3 a")].map((a) => a.getAttribute("href")),
    ["/", "/%09/evil.example/x", "/"],
  );
  assert.equal(doc.querySelector(".topics a")?.getAttribute("href")?.includes("<"), false);

  const page = renderSite(
    <SiteArticle
      {...sampleArticle("full", {
        article: {
          ...sampleArticle().article,
          title: HOSTILE,
          body: `# ${HOSTILE}\n\nBefore ${HOSTILE} after.\n\n<p onclick="x">raw</p>`,
          tags: [HOSTILE],
          canonicalUrl: "javascript:alert(1)",
        },
        reason: HOSTILE,
      })}
    />,
  );
  // The only script is the JSON-LD block.
  assert.equal(page.match(/<script/g)?.length, 1);
  assert.doesNotMatch(page, /<img|<p onclick|javascript:/);
  assert.match(page, /&lt;p onclick=&quot;x&quot;>raw&lt;\/p>/);
  const doc2 = dom(page);
  assert.equal(doc2.querySelector(".body h2")?.textContent, HOSTILE);
  assert.equal(doc2.querySelector('link[rel="canonical"]'), null, "a bad canonical is left out");
});

Deno.test("JSON-LD cannot be broken out of and describes the article", () => {
  const view = sampleArticle("full", {
    article: { ...sampleArticle().article, title: HOSTILE, summary: "a\u2028b <!-- c" },
  });
  const html = renderSite(<SiteArticle {...view} />);
  const raw = ldText(html);
  assert.doesNotMatch(raw, /</);
  assert.ok(!raw.includes("\u2028"));
  const data = JSON.parse(raw);
  assert.equal(data["@type"], "NewsArticle");
  assert.equal(data.headline, HOSTILE);
  assert.equal(data.description, "a\u2028b <!-- c");
  assert.equal(data.datePublished, "2026-11-15T07:30:00.000Z");
  assert.equal(data.url, "https://news.example/2026/11/grid-that-learned-to-wait");
  assert.deepEqual(data.author, { "@type": "Person", name: "Maren Okafor" });
  assert.equal(data.publisher.name, "The Harbour Ledger");
  assert.equal(data.isAccessibleForFree, false);
  assert.equal(data.license, "https://news.example/terms");
  // Everything after the JSON-LD is still the page: the script element closed where it should.
  const doc = dom(html);
  assert.equal(doc.querySelectorAll("script").length, 1);
  assert.equal(doc.querySelector("h1")?.textContent, HOSTILE);
});

Deno.test("a full article shows the whole body, headings and its canonical URL", () => {
  const html = renderSite(<SiteArticle {...sampleArticle("full")} />);
  const doc = dom(html);
  assert.equal(
    doc.querySelector('link[rel="canonical"]')?.getAttribute("href"),
    "https://news.example/2026/11/grid-that-learned-to-wait",
  );
  assert.equal(
    doc.querySelector("title")?.textContent,
    "The grid that learned to wait: how batteries changed the evening peak · The Harbour Ledger",
  );
  assert.deepEqual(texts(doc, ".body h2"), ["Counting the cost"]);
  assert.deepEqual(texts(doc, ".body h3"), ["The small print"]);
  assert.equal(doc.querySelectorAll(".body p").length, 5);
  assert.match(html, /Supporters answer/);
  assert.equal(doc.querySelector(".box"), null, "no paywall box");
  assert.match(doc.querySelector(".reason")!.textContent!, /Licensed read/);
  assert.deepEqual(texts(doc, ".tags a"), ["energy", "markets"]);
});

Deno.test("a teaser shows only the teaser, the price and how to license", () => {
  const view = sampleArticle("teaser");
  const html = renderSite(<SiteArticle {...view} />);
  const doc = dom(html);
  const main = doc.querySelector("main")!.textContent!;
  assert.match(main, /At six in the evening/);
  for (
    const hidden of ["grey containers", "Counting the cost", "The small print", "Supporters answer"]
  ) {
    assert.ok(!html.includes(hidden), `the teaser page does not carry "${hidden}"`);
  }
  assert.equal(doc.querySelectorAll(".body p").length, 1);
  const box = doc.querySelector(".box")!;
  assert.equal(box.querySelector("h2")?.textContent, "How to license this article");
  assert.match(box.textContent!, /USD 0\.0524 per read, including Folio's 4\.7% platform fee/);
  assert.match(box.textContent!, /crawler-exact-price: USD 0\.0524/);
  assert.match(box.textContent!, /Authorization: Bearer <buyer key>/);
  assert.match(box.textContent!, /Web Bot Auth/);
  const links = [...box.querySelectorAll("a")].map((a) => a.getAttribute("href"));
  assert.ok(links.includes("https://news.example/terms"));
  assert.ok(links.includes("https://news.example/license.xml"));
  assert.ok(links.includes("https://folio.example/buyer/signup"));
  assert.match(box.querySelector(".reason")!.textContent!, /paywalled for AI agents/);
  assert.equal(JSON.parse(ldText(html)).isAccessibleForFree, false);
});

Deno.test("a blocked article shows a notice and no body", () => {
  const view = sampleArticle("blocked", {
    article: { ...sampleArticle().article, policy: "BLOCKED" },
  });
  const html = renderSite(<SiteArticle {...view} />);
  const doc = dom(html);
  for (const hidden of ["At six in the evening", "grey containers", "Counting the cost"]) {
    assert.ok(!html.includes(hidden), `the blocked page does not carry "${hidden}"`);
  }
  assert.ok(!html.includes(view.article.summary), "nor the summary");
  assert.equal(doc.querySelector(".body"), null);
  const box = doc.querySelector(".box")!;
  assert.match(
    box.textContent!,
    /The Harbour Ledger does not make this article available to AI agents/,
  );
  assert.ok(
    [...box.querySelectorAll("a")].some((a) =>
      a.getAttribute("href") === "https://news.example/terms"
    ),
  );
  assert.match(box.textContent!, /does not license this article/);
});

Deno.test("a chapter links its book and neighbours and is a schema.org Chapter", () => {
  const html = renderSite(<SiteArticle {...sampleChapter()} />);
  const doc = dom(html);
  assert.equal(doc.querySelector(".crumbs a")?.getAttribute("href"), "/books/bk_tides");
  assert.equal(
    doc.querySelector('.chapter-nav a[rel="prev"]')?.getAttribute("href"),
    "/books/tides/1",
  );
  assert.equal(
    doc.querySelector('.chapter-nav a[rel="next"]')?.getAttribute("href"),
    "/books/tides/3",
  );
  assert.equal(doc.querySelector('link[rel="next"]')?.getAttribute("href"), "/books/tides/3");
  assert.deepEqual(texts(doc, ".body h2"), ["The Salt Road"]);
  assert.ok(texts(doc, ".site-nav a").includes("Books"));
  const data = JSON.parse(ldText(html));
  assert.equal(data["@type"], "Chapter");
  assert.equal(data.position, 2);
  assert.equal(data.isPartOf["@type"], "Book");
  assert.equal(data.isPartOf.name, "Tides: A History of the Estuary");
  assert.equal(data.isPartOf.url, "https://news.example/books/bk_tides");

  const book = dom(renderSite(<SiteBook {...sampleBook()} />));
  assert.equal(book.querySelector("h1")?.textContent, "Tides: A History of the Estuary");
  assert.deepEqual(texts(book, ".chapters a"), ["Low Water", "The Salt Road", "Flood"]);
  assert.match(book.querySelector("main")!.textContent!, /2 October 2026/);
});

Deno.test("not found and error pages", () => {
  const nf = dom(renderSite(
    <SiteNotFound brand={sampleBrand()} path={`/nothing/${HOSTILE}`} />,
  ));
  assert.equal(nf.querySelector("h1")?.textContent, "Page not found");
  assert.match(nf.querySelector("main code")!.textContent!, /\/nothing\/<\/script>/);
  assert.equal(nf.querySelectorAll("script").length, 0);
  const err = dom(renderSite(<SiteError brand={sampleBrand()} requestId="req_123" />));
  assert.equal(err.querySelector("h1")?.textContent, "Something went wrong");
  assert.equal(err.querySelector("main code")?.textContent, "req_123");
});

Deno.test("bad brand color, font and logo are ignored; good ones are used", () => {
  const bad = renderSite(
    <SiteHome
      {...sampleHome({
        brand: sampleBrand({
          primaryColor: "red;}body{display:none",
          font: 'Evil"; } body { background: url(x) ',
          logoUrl: "javascript:alert(1)",
        }),
      })}
    />,
  );
  assert.doesNotMatch(bad, /red;|body{display:none|url\(|javascript:|<img/);
  assert.match(bad, /--brand:#1d4ed8/);
  assert.match(bad, /--font:system-ui/);
  for (const logoUrl of ["data:image/svg+xml,<svg/>", "//cdn.example/logo.png", "logo.png"]) {
    const html = renderSite(<SiteHome {...sampleHome({ brand: sampleBrand({ logoUrl }) })} />);
    assert.doesNotMatch(html, /<img/, logoUrl);
  }
  const good = renderSite(
    <SiteHome
      {...sampleHome({
        brand: sampleBrand({
          primaryColor: "#C00",
          font: '"Source Serif 4", Georgia, serif',
          logoUrl: "https://news.example/logo.svg",
        }),
      })}
    />,
  );
  assert.match(good, /--brand:#cc0000/);
  assert.match(good, /--font:'Source Serif 4', 'Georgia', serif, system-ui/);
  const img = dom(good).querySelector(".brand img")!;
  assert.equal(img.getAttribute("src"), "https://news.example/logo.svg");
  assert.equal(img.getAttribute("alt"), "The Harbour Ledger");
  // The stylesheet is raw text: nothing in it may need escaping.
  const style = /<style>([\s\S]*?)<\/style>/.exec(good)![1];
  assert.doesNotMatch(style, /&(quot|amp|lt);/);
});

Deno.test("brand helpers: colors, fonts, hrefs, dates and blocks", () => {
  assert.equal(safeColor("#0f766e"), "#0f766e");
  assert.equal(safeColor("#abcd"), "#aabbcc");
  assert.equal(safeColor("#11223344"), "#112233");
  assert.equal(safeColor("#12345"), null);
  assert.equal(safeColor("blue"), null);
  assert.equal(safeFont("Inter; color:red"), null);
  assert.equal(safeFont("{}"), null);
  assert.equal(
    safeFont("'Inter'"),
    "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  );
  assert.equal(safeHref("/a/b?c=1"), "/a/b?c=1");
  assert.equal(safeHref("/\\evil.example"), null);
  assert.equal(safeHref("https://x.example/a"), "https://x.example/a");
  assert.equal(safeHref("vbscript:x"), null);
  assert.equal(longDate("2026-11-15T10:00:00Z"), "15 November 2026");
  assert.equal(longDate("2026-11-15T23:30:00-02:00"), "16 November 2026");
  assert.equal(longDate("not a date"), null);
  assert.equal(longDate(null), null);
  assert.deepEqual(blocks("# A\nline one\nline two\n\n## B\n\n\nlast"), [
    { kind: "h2", text: "A" },
    { kind: "p", text: "line one line two" },
    { kind: "h3", text: "B" },
    { kind: "p", text: "last" },
  ]);
  // Levels are relative to the text's shallowest heading and never skip one.
  assert.deepEqual(blocks("## A\n\n### B\n\n## C").map((b) => b.kind), ["h2", "h3", "h2"]);
  assert.deepEqual(blocks("### A\n\n# B\n\n## C").map((b) => b.kind), ["h2", "h2", "h3"]);
  assert.deepEqual(blocks("#hashtag not a heading"), [
    { kind: "p", text: "#hashtag not a heading" },
  ]);
  // A pale brand color still gives readable links and button text.
  for (const color of ["#fde047", "#ffffff", "#0f766e", "#000000"]) {
    const p = palette(color);
    assert.ok(contrast(p.ink, "#ffffff") >= 4.5, `${color} links`);
    assert.ok(contrast(p.brand, p.onBrand) >= 4.5 || contrast(p.brand, p.onBrand) >= 3, color);
  }
});

Deno.test("chapter and article counts are singular for one and plural otherwise", () => {
  const one = dom(
    renderSite(<SiteBook {...sampleBook({ chapters: sampleBook().chapters.slice(0, 1) })} />),
  );
  assert.match(one.querySelector("header p, main p")!.textContent!, /· 1 chapter$/);
  const three = dom(renderSite(<SiteBook {...sampleBook()} />));
  assert.match(three.querySelector("header p, main p")!.textContent!, /· 3 chapters$/);
  const home = renderSite(
    <SiteHome
      {...sampleHome({
        books: [
          { id: "a", title: "A", author: "X", chapters: 1 },
          { id: "b", title: "B", author: "Y", chapters: 2 },
        ],
      })}
    />,
  );
  assert.match(home, /X · 1 chapter</);
  assert.match(home, /Y · 2 chapters</);
});
