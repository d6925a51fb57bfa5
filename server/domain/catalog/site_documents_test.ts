/** Reading sitemaps and feeds (site_documents.ts, site_discovery.ts's readDocument). */
import assert from "node:assert/strict";
import { feedLinks, readDocument, sitemapLines } from "./site_discovery.ts";
import { JSON_FEED_MAX_CHARS } from "./json_feed.ts";
import { MAX_LISTED, MAX_SITEMAP_BYTES } from "./site_documents.ts";

const BASE = "https://news.example/sitemap.xml";
const enc = (s: string) => new TextEncoder().encode(s);
const read = (xml: string, type = "application/xml") =>
  readDocument(enc(xml), BASE, type, MAX_SITEMAP_BYTES);

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("a urlset keeps each page's loc and lastmod, not an image's loc", async () => {
  const doc = await read(`<?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
            xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <url><image:image><image:loc>https://cdn.example/a.jpg</image:loc></image:image>
        <loc> https://news.example/a </loc><lastmod>2026-11-01</lastmod></url>
      <url><loc>https://news.example/b?x=1&amp;y=2</loc>
        <lastmod>2026-11-02T10:00:00+01:00</lastmod></url>
    </urlset>`);
  assert.equal(doc.kind, "urlset");
  assert.equal(doc.problem, null);
  assert.deepEqual(doc.pages, [
    { url: "https://news.example/a", lastmod: Date.parse("2026-11-01"), title: null },
    {
      url: "https://news.example/b?x=1&y=2",
      lastmod: Date.parse("2026-11-02T09:00:00Z"),
      title: null,
    },
  ]);
});

Deno.test("an index lists sitemaps; a Google News sitemap gives title and publication date", async () => {
  const index = await read(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <sitemap><loc>https://news.example/s1.xml.gz</loc><lastmod>2026-11-03</lastmod></sitemap>
    <sitemap><loc>/s2.xml</loc></sitemap></sitemapindex>`);
  assert.equal(index.kind, "sitemapindex");
  assert.deepEqual(index.sitemaps.map((s) => s.url), [
    "https://news.example/s1.xml.gz",
    "https://news.example/s2.xml",
  ]);
  const news = await read(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
      xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
    <url><loc>https://news.example/n1</loc><news:news>
      <news:publication><news:name>The Example</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2026-11-20T08:00:00Z</news:publication_date>
      <news:title>Harbour &amp; council agree</news:title></news:news></url></urlset>`);
  assert.deepEqual(news.pages, [{
    url: "https://news.example/n1",
    lastmod: Date.parse("2026-11-20T08:00:00Z"),
    title: "Harbour & council agree",
  }]);
});

Deno.test("RSS 2.0, RSS 1.0 and Atom feeds give their items' links, dates and titles", async () => {
  const rss = await read(
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
    <title>Site</title><link>https://news.example/</link>
    <item><title><![CDATA[First <b>one</b>]]></title><atom:link href="https://x.example/self"/>
      <link>https://news.example/r1</link><pubDate>Tue, 10 Nov 2026 04:00:00 GMT</pubDate></item>
    <item><guid>https://news.example/r2</guid></item>
    <item><guid isPermaLink="false">tag:1</guid></item></channel></rss>`,
    "application/rss+xml",
  );
  assert.equal(rss.kind, "rss");
  assert.deepEqual(rss.pages, [
    {
      url: "https://news.example/r1",
      lastmod: Date.parse("2026-11-10T04:00:00Z"),
      title: "First <b>one</b>",
    },
    { url: "https://news.example/r2", lastmod: null, title: null },
  ]);
  const atom = await read(`<feed xmlns="http://www.w3.org/2005/Atom"><title>Site</title>
    <link rel="self" href="https://news.example/feed.atom"/>
    <entry><title>A1</title><link rel="edit" href="/edit/1"/><link href="/a1"/>
      <published>2026-11-01T00:00:00Z</published><updated>2026-11-05T00:00:00Z</updated></entry>
  </feed>`);
  assert.equal(atom.kind, "atom");
  assert.deepEqual(atom.pages, [
    { url: "https://news.example/a1", lastmod: Date.parse("2026-11-05T00:00:00Z"), title: "A1" },
  ]);
  const rdf = await read(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
    <channel rdf:about="https://news.example/"><title>S</title></channel>
    <item rdf:about="https://news.example/d1"><title>D1</title><dc:date>2026-11-07</dc:date></item>
  </rdf:RDF>`);
  assert.equal(rdf.kind, "rdf");
  assert.deepEqual(rdf.pages.map((p) => p.url), ["https://news.example/d1"]);
});

Deno.test("malformed XML keeps what it could read and names the fault; HTML is not a sitemap", async () => {
  const broken = await read(`<urlset><url><loc>https://news.example/ok</loc></url>
    <url><loc>https://news.example/x&custom;</loc></url><url><loc>https://news.example/after</loc></url>`);
  assert.equal(broken.kind, "urlset");
  assert.deepEqual(broken.pages.map((p) => p.url), ["https://news.example/ok"]);
  assert.equal(broken.problem, "not well-formed XML: undefined entity (line 2, column 44)");
  const tag = await read(`<urlset><url><loc>https://news.example/ok</loc></url>
    <url><loc a=>https://news.example/x</loc></url><url><loc>https://news.example/after</loc></url>`);
  assert.deepEqual(tag.pages.map((p) => p.url), ["https://news.example/ok"]);
  assert.match(tag.problem!, /^not well-formed XML: .+\(line 2, column \d+\)$/);
  const html = await read("<html><body>Not found</body></html>", "text/xml");
  assert.equal(html.kind, "unknown");
  assert.equal(html.problem, "not a sitemap or feed (root element <html>)");
  assert.equal((await read("   ")).problem, "empty document");
});

Deno.test("a text sitemap is one URL per line; more than 50,000 URLs keeps the first 50,000", async () => {
  const text = await read(
    "https://news.example/t1\nnot a url\n\nhttps://news.example/t2\n",
    "text/plain",
  );
  assert.equal(text.kind, "text");
  assert.deepEqual(text.pages.map((p) => p.url), [
    "https://news.example/t1",
    "https://news.example/t2",
  ]);
  const many = Array.from(
    { length: MAX_LISTED + 1 },
    (_, i) => `<url><loc>https://news.example/p${i}</loc></url>`,
  );
  const big = await read(`<urlset>${many.join("")}</urlset>`);
  assert.equal(big.pages.length, MAX_LISTED);
  assert.equal(big.pages.at(-1)!.url, `https://news.example/p${MAX_LISTED - 1}`);
  assert.match(big.problem!, /more than 50,000 URLs/);
});

Deno.test("a gzip sitemap is inflated; a gzip bomb stops at the limit; corrupt gzip says so", async () => {
  const gz = await gzip(`<urlset><url><loc>https://news.example/g1</loc></url></urlset>`);
  const doc = await readDocument(gz, BASE, "application/gzip", MAX_SITEMAP_BYTES);
  assert.deepEqual(doc.pages.map((p) => p.url), ["https://news.example/g1"]);
  // 60 MB of entries padded with a megabyte of whitespace each, about 60 KB compressed: the
  // entries before the limit are kept, nothing past it is inflated.
  const blank = " ".repeat(1 << 20);
  const parts = ["<urlset>"];
  for (let i = 0; i < 60; i++) {
    parts.push(`<url><loc>https://news.example/g${i}</loc></url>`, blank);
  }
  const bomb = await gzip(parts.join("") + "</urlset>");
  assert.ok(bomb.length < 1 << 20);
  const refused = await readDocument(bomb, BASE, "application/gzip", MAX_SITEMAP_BYTES);
  assert.equal(refused.problem, "larger than 50 MB uncompressed");
  assert.ok(refused.pages.length >= 49 && refused.pages.length <= 50, `${refused.pages.length}`);
  // One run of 60 MB of whitespace is refused once it passes 4 MB, before the limit: saxes would
  // hold all of it.
  const run = await gzip(
    `<urlset><url><loc>https://news.example/r</loc></url>${blank.repeat(60)}</urlset>`,
  );
  const cut = await readDocument(run, BASE, "application/gzip", MAX_SITEMAP_BYTES);
  assert.equal(cut.problem, "a text, comment or tag longer than 4 MB");
  assert.deepEqual(cut.pages.map((p) => p.url), ["https://news.example/r"]);
  const corrupt = gz.slice();
  corrupt.fill(7, 10, 30);
  assert.match(
    (await readDocument(corrupt, BASE, "application/gzip", 1 << 20)).problem!,
    /^not valid gzip/,
  );
});

Deno.test("robots.txt Sitemap lines and a page's feed links", () => {
  assert.deepEqual(
    sitemapLines(
      "User-agent: *\nDisallow:\nSitemap: https://news.example/s.xml\n sitemap:/rel.xml\nSitemap: ftp://x/y\n",
      "https://news.example/",
    ),
    ["https://news.example/s.xml", "https://news.example/rel.xml"],
  );
  const html = `<html><head>
    <link rel="alternate" type="application/rss+xml" href="/feed.rss">
    <link rel="ALTERNATE" type="application/atom+xml" href="https://news.example/feed.atom">
    <link rel="alternate" hreflang="fr" href="/fr/">
    <link rel="stylesheet" type="text/css" href="/s.css"></head><body></body></html>`;
  assert.deepEqual(feedLinks(html, "https://news.example/"), [
    "https://news.example/feed.rss",
    "https://news.example/feed.atom",
  ]);
});

Deno.test("entities declared in a DOCTYPE are never expanded (no billion laughs, no external files)", async () => {
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
    Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`,
    ).join("") +
    `<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
    `<urlset><url><loc>https://news.example/ok</loc></url><url><loc>&lol9;&xxe;</loc></url></urlset>`;
  const doc = await read(laughs);
  assert.deepEqual(doc.pages.map((p) => p.url), ["https://news.example/ok"]);
  assert.match(doc.problem!, /^not well-formed XML: /);
});

Deno.test("real files (issue 41): whitespace before <?xml, a gzipped text sitemap, deep nesting", async () => {
  const feed = await read(`\n\n   <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0"><channel><item><link>https://news.example/w1</link></item></channel></rss>`);
  assert.equal(feed.kind, "rss");
  assert.equal(feed.problem, null);
  assert.deepEqual(feed.pages.map((p) => p.url), ["https://news.example/w1"]);
  const bom = await read(
    `\uFEFF \r\n<?xml version="1.0"?><urlset><url><loc>/b</loc></url></urlset>`,
  );
  assert.deepEqual(bom.pages.map((p) => p.url), ["https://news.example/b"]);

  // Gzip says nothing of what is inside: sniffed after inflating.
  const text = await gzip("https://news.example/t1\nhttps://news.example/t2\r\n\nnot a url\n");
  for (const type of ["application/gzip", "application/octet-stream", "application/x-gzip"]) {
    const doc = await readDocument(text, BASE, type, MAX_SITEMAP_BYTES);
    assert.equal(doc.kind, "text", type);
    assert.deepEqual(doc.pages.map((p) => p.url), [
      "https://news.example/t1",
      "https://news.example/t2",
    ]);
  }
  const xml = await gzip(`  <?xml version="1.0"?><urlset><url><loc>/x</loc></url></urlset>`);
  assert.equal(
    (await readDocument(xml, BASE, "application/gzip", MAX_SITEMAP_BYTES)).kind,
    "urlset",
  );

  // 200,000 nested elements: refused at 64 levels, what came before kept.
  const deep = await read(
    `<urlset><url><loc>/d</loc></url>${"<x>".repeat(200_000)}${"</x>".repeat(200_000)}</urlset>`,
  );
  assert.equal(deep.problem, "elements nested deeper than 64 levels");
  assert.deepEqual(deep.pages.map((p) => p.url), ["https://news.example/d"]);
});

Deno.test("robots.txt Site-map lines count as Sitemap lines (Google accepts the spelling)", () => {
  assert.deepEqual(
    sitemapLines(
      "User-agent: *\nSite-map: https://news.example/a.xml\nsite-map :/b.xml\nSitemaps: /no.xml\n",
      "https://news.example/",
    ),
    ["https://news.example/a.xml", "https://news.example/b.xml"],
  );
});

Deno.test("feeds as sites write them: bare ampersands, HTML entities, unclosed tags, control characters", async () => {
  const feed = await read(`<?xml version="1.0"?><rss version="2.0"><channel><title>Q&A</title>
    <item><title>Tom & Jerry&nbsp;&mdash; caf&eacute; &#8217;24</title>
      <link>https://news.example/a?id=1&page=2</link><description>one<br>two</description></item>
    <item><title>Fish &amp; chips \u000b</title><link>https://news.example/b</link>
      <description><![CDATA[<p>A&B &amp; ]]></description></item>
    <item><title>Last</title><link>https://news.example/c</link></item>
  </channel></rss>`);
  assert.equal(feed.kind, "rss");
  assert.deepEqual(feed.pages.map((p) => [p.url, p.title]), [
    ["https://news.example/a?id=1&page=2", "Tom & Jerry\u00a0\u2014 caf\u00e9 \u201924"],
    ["https://news.example/b", "Fish & chips"],
    ["https://news.example/c", "Last"],
  ]);
  // Read past, and still named, so the publisher can fix the feed.
  assert.match(feed.problem!, /^not well-formed XML: (unexpected close tag|disallowed character) /);
  // RSS 0.91 declares HTML's entities in its DTD; an Atom link's bare ampersand.
  const rss091 = await read(`<?xml version="1.0"?>
    <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
      "http://my.netscape.com/publish/formats/rss-0.91.dtd">
    <rss version="0.91"><channel><item><title>&Eacute;t&eacute;</title>
      <link>https://news.example/ete</link></item></channel></rss>`);
  assert.deepEqual(rss091.pages.map((p) => p.title), ["\u00c9t\u00e9"]);
  assert.equal(rss091.problem, null);
  const atom = await read(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>x</title>
    <link href="https://news.example/q?a=1&b=2"/></entry></feed>`);
  assert.deepEqual(atom.pages.map((p) => p.url), ["https://news.example/q?a=1&b=2"]);
  // A stray close tag closes nothing, as in an HTML parser: entries after it are still read
  // (but not a second root after the real one's end).
  const stray = await read(`<rss version="2.0"><channel><image><url>https://news.example/i.png</url>
    </height></image><item><link>https://news.example/1</link></item></div>
    <item><link>https://news.example/2</link></item></channel></rss>`);
  assert.deepEqual(stray.pages.map((p) => p.url), [
    "https://news.example/1",
    "https://news.example/2",
  ]);
  assert.equal(stray.problem, "not well-formed XML: unexpected close tag (line 2, column 13)");
  const inTitle = await read(`<rss><channel><item><title>A</b> B</title>
    <link>https://news.example/1</link></item></channel></rss></rss><item><link>/x</link></item>`);
  assert.deepEqual(inTitle.pages.map((p) => [p.url, p.title]), [["https://news.example/1", "A B"]]);
  const urlset = await read(`<urlset><url><loc>https://news.example/1</loc></b></url>
    <url><loc>https://news.example/2</loc></url></urlset>`);
  assert.deepEqual(urlset.pages.map((p) => p.url), [
    "https://news.example/1",
    "https://news.example/2",
  ]);
});

Deno.test("a feed decodes by its BOM, its Content-Type charset, or its XML declaration", async () => {
  const latin1 = Uint8Array.from(
    `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="0.91"><channel><item>` +
      `<title>L\u00edngua portuguesa</title><link>https://news.example/l</link></item></channel></rss>`,
    (c) => c.charCodeAt(0),
  );
  const title = async (bytes: Uint8Array, type = "application/rss+xml") =>
    (await readDocument(bytes, BASE, type, MAX_SITEMAP_BYTES)).pages.map((p) => p.title);
  assert.deepEqual(await title(latin1), ["L\u00edngua portuguesa"]);
  const gzipped = new Blob([latin1]).stream().pipeThrough(new CompressionStream("gzip"));
  assert.deepEqual(
    await title(new Uint8Array(await new Response(gzipped).arrayBuffer())),
    ["L\u00edngua portuguesa"],
    "the declaration is read after inflating",
  );
  // The Content-Type's charset wins over the declaration (RFC 7303 section 3.2).
  const utf8 = enc(
    `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>\u4f60\u597d</title>` +
      `<link>https://news.example/u</link></item></channel></rss>`,
  );
  assert.deepEqual(await title(utf8, "text/xml; charset=utf-8"), ["\u4f60\u597d"]);
  // GB2312 (as GBK), declared; UTF-16 by its byte order mark.
  const gb = Uint8Array.from([
    ...enc(`<?xml version="1.0" encoding="gb2312"?><rss><channel><item><title>`),
    0xc4,
    0xe3,
    0xba,
    0xc3,
    ...enc(`</title><link>https://news.example/g</link></item></channel></rss>`),
  ]);
  assert.deepEqual(await title(gb), ["\u4f60\u597d"]);
  const text16 =
    `<rss><channel><item><title>\u00e9t\u00e9</title><link>https://news.example/w</link></item></channel></rss>`;
  const utf16 = new Uint8Array(2 + text16.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < text16.length; i++) {
    utf16[2 + 2 * i] = text16.charCodeAt(i) & 0xff;
    utf16[3 + 2 * i] = text16.charCodeAt(i) >> 8;
  }
  assert.deepEqual(await title(utf16), ["\u00e9t\u00e9"]);
  // An unknown label reads as UTF-8 rather than failing.
  assert.deepEqual(
    await title(enc(
      `<?xml version="1.0" encoding="x-nonsense"?>` +
        `<rss><channel><item><title>ok</title><link>https://news.example/o</link></item></channel></rss>`,
    )),
    ["ok"],
  );
});

Deno.test("a JSON Feed lists its items' pages, dates and titles; a page links it like RSS", async () => {
  const feed = await read(
    JSON.stringify({
      version: "https://jsonfeed.org/version/1.1",
      title: "News",
      items: [
        {
          id: "1",
          url: "https://news.example/j1",
          title: " First ",
          date_published: "2026-11-01T10:00:00Z",
          date_modified: "2026-11-02T10:00:00Z",
        },
        { id: "2", external_url: "/j2", content_text: "no title" },
        { id: "3", content_html: "<p>no address</p>" },
        { id: "4", url: "javascript:alert(1)" },
        "not an item",
      ],
    }),
    "application/feed+json",
  );
  assert.equal(feed.kind, "json");
  assert.equal(feed.problem, null);
  assert.deepEqual(feed.pages, [
    { url: "https://news.example/j1", lastmod: Date.parse("2026-11-02T10:00:00Z"), title: "First" },
    { url: "https://news.example/j2", lastmod: null, title: null },
  ]);
  // Version 1 served as plain JSON, after whitespace.
  const v1 = await read(
    `  {"version": "https://jsonfeed.org/version/1", "items": [{"url": "https://news.example/v1"}]}`,
    "application/json",
  );
  assert.deepEqual(v1.pages.map((p) => p.url), ["https://news.example/v1"]);
  assert.deepEqual(
    feedLinks(
      `<link rel="alternate" type="application/feed+json" href="/feed.json">` +
        `<link rel="alternate" type="application/json" href="/feed1.json">` +
        `<link rel="alternate" title="JSON" type="application/json" href="/wp-json/wp/v2/pages/2">` +
        `<link rel="alternate" type="application/json+oembed" href="/wp-json/oembed/1.0/embed?url=x">`,
      "https://news.example/",
    ),
    ["https://news.example/feed.json", "https://news.example/feed1.json"],
    "WordPress's REST and oEmbed links are no feeds",
  );
});

Deno.test("JSON that is no feed, broken JSON and an oversized feed are named, and list nothing", async () => {
  const other = await read(`{"hello": "world"}`, "application/json");
  assert.equal(other.kind, "unknown");
  assert.match(other.problem!, /^not a sitemap or feed \(JSON without a JSON Feed version\)$/);
  const broken = await read(`{"version": "https://jsonfeed.org/version/1.1", "items": [`);
  assert.equal(broken.pages.length, 0);
  assert.match(broken.problem!, /^not valid JSON \(/);
  const noItems = await read(`{"version": "https://jsonfeed.org/version/1.1"}`);
  assert.equal(noItems.problem, "a JSON feed without an items list");
  const item = `{"url": "https://news.example/x", "content_text": "${"y".repeat(1000)}"},`;
  const huge = `{"version": "https://jsonfeed.org/version/1.1", "items": [` +
    item.repeat(Math.ceil(JSON_FEED_MAX_CHARS / item.length) + 1) + `{}]}`;
  const over = await read(huge);
  assert.equal(over.pages.length, 0);
  assert.equal(over.problem, "larger than 4 MB (a JSON feed is read whole)");
});
