/**
 * What a page says about itself, read before Readability touches the document: JSON-LD (CDATA
 * wrappers, @graph and @id references included), OpenGraph, Dublin Core, microdata and the
 * visible <h1>, byline and <time>. Each field has its own precedence (docs/decisions/ingestion.md).
 */
import { pickDate } from "./dates.ts";

type Obj = Record<string, unknown>;

const CONTENT_TYPES = new Set([
  "article",
  "newsarticle",
  "blogposting",
  "reportagenewsarticle",
  "analysisnewsarticle",
  "opinionnewsarticle",
  "backgroundnewsarticle",
  "reviewnewsarticle",
  "techarticle",
  "scholarlyarticle",
  "report",
  "liveblogposting",
  "socialmediaposting",
  "discussionforumposting",
  "recipe",
  "howto",
  "review",
]);
/** Names that stand for a site or a desk, never for the person who wrote the piece. */
const GENERIC_AUTHORS =
  /^(admin|administrator|root|editor|editors|staff|staff writer|team|newsroom|webmaster|redaktion|rédaction|redacción|redazione|redação|editorial|editorial team|guest|anonymous|unknown)$/i;
/** Title separators between a headline and its site or section name. */
const SEPARATORS = /\s+[|\-–—·:»/]{1,2}\s+|\s*[｜|]\s*/;

/** Reads `<meta>` tags: lower-cased name or property → contents in document order. */
export function metaTags(doc: Document): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of doc.querySelectorAll("meta")) {
    const key = (m.getAttribute("property") ?? m.getAttribute("name") ?? "").trim().toLowerCase();
    const content = clean(m.getAttribute("content"));
    if (!key || !content) continue;
    out.set(key, [...(out.get(key) ?? []), content]);
  }
  return out;
}

/** Every JSON-LD node of the page, flattened, with the first content (article) node. */
export function jsonLd(
  doc: Document,
): { article: Obj | null; byId: Map<string, Obj>; people: string[] } {
  const nodes: Obj[] = [];
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    // CDATA wrappers, bare or inside // and /* */ comments, are common in XHTML-era templates.
    const raw = (script.textContent ?? "")
      .replace(/^\s*(?:\/\/|\/\*)?\s*<!\[CDATA\[(?:\s*\*\/)?/, "")
      .replace(/(?:\/\/|\/\*)?\s*\]\]>\s*(?:\*\/)?\s*$/, "");
    try {
      collect(JSON.parse(raw), nodes, 0);
    } catch {
      continue; // a broken block is common in the wild; the others may still be good
    }
  }
  const byId = new Map<string, Obj>();
  for (const n of nodes) if (typeof n["@id"] === "string") byId.set(n["@id"], n);
  const article = nodes.find((n) => types(n).some((t) => CONTENT_TYPES.has(t))) ?? null;
  // Every node typed Person, nested ones (an article's author, a blog's publisher) included.
  const people: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    const o = v as Obj;
    if (types(o).includes("person") && str(o.name)) people.push(clean(str(o.name)));
    for (const [k, x] of Object.entries(o)) if (k !== "@graph") walk(x, depth + 1);
  };
  nodes.forEach((n) => walk(n, 0));
  return { article, byId, people };
}

function collect(node: unknown, out: Obj[], depth: number): void {
  if (depth > 6 || node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out, depth + 1);
    return;
  }
  out.push(node as Obj);
  collect((node as Obj)["@graph"], out, depth + 1);
}

function types(n: Obj): string[] {
  return ([] as unknown[]).concat(n["@type"] ?? []).map((t) => String(t).toLowerCase());
}

/** Names the site goes by: og:site_name, the JSON-LD publisher, application-name. */
export function siteNames(meta: Map<string, string[]>, ld: Obj | null): string[] {
  const publisher = ld?.publisher as Obj | undefined;
  return [
    meta.get("og:site_name")?.[0],
    typeof publisher?.name === "string" ? publisher.name : undefined,
    meta.get("application-name")?.[0],
  ].map((s) => clean(s)).filter(Boolean);
}

type Family = "social" | "document" | "visible" | "structured";

/**
 * The title: og:title, <title>, <h1>, JSON-LD headline, DC.title, twitter:title, each with the
 * site's name cut off. The one most other kinds of source agree with wins, ties in that order:
 * a JSON-LD headline is often an SEO variant, og:title a social one, <title> carries the site.
 */
export function pickTitle(
  doc: Document,
  meta: Map<string, string[]>,
  ld: Obj | null,
  siteNamesOfPage: string[],
  url = "",
): string {
  const sites = [...siteNamesOfPage, ...chromeNames(doc, url), ...PLATFORMS];
  const h1 = [...doc.querySelectorAll("article h1, main h1, [itemprop~=headline]")][0] ??
    [...doc.querySelectorAll("h1")].find((el) => !siteChrome(el)) ??
    // Themes that set the post's title in an h2 (older WordPress and Blogger ones).
    [...doc.querySelectorAll(HEADLINE_CLASSES)].find((el) => !siteChrome(el));
  const sources: [Family, string][] = [
    ["social", meta.get("og:title")?.[0] ?? ""],
    ["document", clean(doc.querySelector("title")?.textContent)],
    ["visible", headingText(h1?.getAttribute("content") ?? h1?.textContent)],
    ["structured", str(ld?.headline)],
    ["structured", meta.get("dc.title")?.[0] ?? meta.get("dcterms.title")?.[0] ?? ""],
    ["social", meta.get("twitter:title")?.[0] ?? ""],
    ["structured", str(ld?.name)],
  ];
  sites.push(...titleSites(sources));
  const cands = sources.map(([family, raw]) => ({
    family,
    value: stripSite(clean(decodeEntities(raw)), sites),
    pieces: pieces(clean(decodeEntities(raw)), sites),
  })).filter((c) => c.value && !sites.some((s) => same(s, c.value)) && !urlLike(c.value));
  if (cands.length === 0) return firstHeading(doc);
  let best = { value: "", support: -1 };
  const consider = (value: string, family: Family) => {
    const support = new Set(
      cands.filter((o) => o.family !== family && o.pieces.some((p) => same(p, value)))
        .map((o) => o.family),
    ).size;
    if (support > best.support) best = { value, support };
  };
  for (const c of cands) consider(c.value, c.family);
  if (best.support > 0) return best.value;
  // Nothing agrees: the first source; a <title> with no known site cut as Readability cuts it.
  const first = cands[0];
  if (first.family !== "document") return first.value;
  const raw = clean(decodeEntities(sources[1][1]));
  return first.value !== raw ? first.value : readerTitle(raw);
}

/** Elements themes give the post's headline when it is no <h1>. */
const HEADLINE_CLASSES = ".entry-title, .post-title, .article-title, .headline, .title.post";

/**
 * Site names the <title> shows beside the headline: when one end of it is the page's <h1> or its
 * JSON-LD headline, the other end is the site's ("Post – Acme Blog" with <h1>Post</h1>), so an
 * og:title that is only "Acme Blog" is no title either.
 */
function titleSites(sources: [Family, string][]): string[] {
  const title = clean(decodeEntities(sources.find(([f]) => f === "document")?.[1] ?? ""));
  const anchors = sources.filter(([f]) => f === "visible" || f === "structured")
    .map(([, v]) => clean(decodeEntities(v))).filter(Boolean);
  const parts = title.split(SEPARATORS).map((p) => p.trim()).filter(Boolean);
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const head = joinedSlice(title, parts, 0, i);
    const tail = joinedSlice(title, parts, i, parts.length);
    if (anchors.some((a) => same(a, head))) out.push(tail);
    else if (anchors.some((a) => same(a, tail))) out.push(head);
  }
  return out.filter(Boolean);
}

/**
 * Readability 0.6.0's cut of a <title> (`_getArticleTitle`): the part before the last separator,
 * or after the first when that part has under three words; the whole title when what is left
 * has four words or fewer. Only spaced separators count.
 */
function readerTitle(title: string): string {
  const SEP = /\s[|\-–—\\/>»]\s/g;
  const count = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const seps = [...title.matchAll(SEP)];
  if (seps.length === 0) return title;
  const hierarchical = /\s[\\/>»]\s/.test(title);
  let cut = title.slice(0, seps[seps.length - 1].index);
  // After the first spaced separator (Readability cuts at any dash, "Covid-19" included).
  if (count(cut) < 3) cut = title.slice(seps[0].index! + seps[0][0].length);
  cut = clean(cut);
  const n = count(cut);
  const whole = count(title.replace(/[|\-–—\\/>»]+/g, ""));
  return n <= 4 && (!hierarchical || n !== whole - 1) ? title : cut;
}

/** Hosting platforms whose name stands in <title> or og:title beside (or for) the article's. */
const PLATFORMS = [
  "Medium",
  "Substack",
  "WordPress.com",
  "Blogger",
  "Ghost",
  "Tumblr",
  "Notion",
  "Hashnode",
  "DEV Community",
  "GitHub",
  "GitHub Pages",
  "GitBook",
  "Read the Docs",
  "Wix",
  "Squarespace",
  "LinkedIn",
  "Mirror",
  "beehiiv",
];

/**
 * Names the page's own header shows for the site (its home link, its site title) and the host:
 * a <title> piece equal to one is the site's, not the article's.
 */
function chromeNames(doc: Document, url: string): string[] {
  const names = [...doc.querySelectorAll(
    "[rel~=home], .site-title, .site-name, .navbar__title, .navbar-brand, header a[href='/'], nav a[href='/']",
  )].map((el) => clean(el.textContent)).filter((n) => n && n.length <= 80);
  try {
    const host = new URL(url).hostname.replace(/^www\./, "");
    if (host) names.push(host);
  } catch { /* no URL: no host */ }
  return names;
}

/** An <h1> that is the site's header or logo, not the article's headline. */
function siteChrome(el: Element): boolean {
  if (el.closest("nav, [role=banner], [role=navigation]")) return true;
  const header = el.closest("header");
  if (header && !header.closest("article, main")) return true;
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`.toLowerCase();
  if (/\b(site|blog)[-_]?(title|name)\b|\blogo\b|\bbrand\b|\bmasthead\b/.test(names)) return true;
  // Nothing but a link home.
  const links = el.querySelectorAll("a");
  return links.length === 1 && clean(links[0].textContent) === clean(el.textContent) &&
    /^(\/|\.\/|index\.html|https?:\/\/[^/]+\/?)$/.test(links[0].getAttribute("href") ?? "");
}

/** A URL standing for a title ("Node.js" is a title, "blog.example/p" is not). */
function urlLike(s: string): boolean {
  return /^(https?:\/\/|www\.)\S+$/i.test(s) || /^[\w-]+(\.[\w-]+)+\/\S*$/.test(s);
}

/** The first heading of the page's text, when no source names it. */
function firstHeading(doc: Document): string {
  const h = [...doc.querySelectorAll("article h1, main h1, h1, h2, h3")]
    .find((el) => !siteChrome(el) && clean(el.textContent));
  return h ? headingText(h.textContent) : "";
}

/** A heading's words without the link marks documentation tools append ("¶", "#", "§"). */
function headingText(s: string | null | undefined): string {
  return clean((s ?? "").replace(/[\s¶#§\u200b]+$/u, ""));
}

/** A title and the pieces a separator splits it into (site names dropped). */
function pieces(title: string, sites: string[]): string[] {
  const out = [title, stripSite(title, sites)];
  const parts = title.split(SEPARATORS).map((p) => p.trim()).filter(Boolean);
  if (parts.length > 1) {
    out.push(...parts);
    for (let i = 1; i < parts.length; i++) {
      out.push(joinedSlice(title, parts, 0, i), joinedSlice(title, parts, i, parts.length));
    }
  }
  return out.filter((p) => p && !sites.some((s) => same(s, p)));
}

/** parts[from..to) as they were written in `title`, separators included. */
function joinedSlice(title: string, parts: string[], from: number, to: number): string {
  const start = title.indexOf(parts[from]);
  const last = parts[to - 1];
  const end = title.lastIndexOf(last) + last.length;
  return start >= 0 && end > start ? title.slice(start, end) : "";
}

/**
 * `title` without a site's name before or after a separator, when what is left still names an
 * article: not empty, not a generic page name ("Home", "Blog").
 */
function stripSite(title: string, sites: string[]): string {
  let t = title;
  for (const site of sites) {
    const esc = site.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    t = t.replace(new RegExp(`(?:${SEPARATORS.source})${esc}$`, "i"), "")
      .replace(new RegExp(`^${esc}(?:${SEPARATORS.source})`, "i"), "").trim();
  }
  return t && !GENERIC_TITLES.test(t) ? t : title;
}

const GENERIC_TITLES = /^(home|homepage|blog|posts?|articles?|news|index|page|untitled)$/i;

/**
 * The author: JSON-LD Person names (references by @id followed), article:author that is not a
 * URL, DC.creator, microdata, rel=author, a byline element, then <meta name=author>. A name that
 * is the site's, a domain, or a generic desk ("admin", "Redaktion") is a decoy and skipped, unless
 * structured data calls that name a Person (a personal blog: the author is the site).
 */
export function pickAuthor(
  doc: Document,
  meta: Map<string, string[]>,
  ld: { article: Obj | null; byId: Map<string, Obj>; people: string[] },
  sites: string[],
): string {
  const people = [
    ...ld.people,
    ...[...doc.querySelectorAll("[itemtype*='schema.org/Person' i]")].map((el) =>
      clean(el.querySelector("[itemprop~=name]")?.textContent)
    ),
  ];
  const decoy = (n: string) => isDecoyAuthor(n, sites, people);
  const lists: string[][] = [
    ldPeople(ld.article?.author, ld.byId),
    meta.get("article:author") ?? [],
    meta.get("dc.creator") ?? meta.get("dcterms.creator") ?? [],
    [...doc.querySelectorAll("[itemprop~=author]")].map((el) =>
      clean(el.querySelector("[itemprop~=name]")?.textContent ?? el.textContent)
    ),
    [...doc.querySelectorAll('a[rel~="author"]')].map((a) => clean(a.textContent)),
    [...doc.querySelectorAll(".byline .author, .byline [class*=name], .author-name, .author")]
      .filter((el) => !el.closest("[class*=comment], [id*=comment]"))
      .map((el) => byline(el.textContent)),
    meta.get("author") ?? [],
    meta.get("parsely-author") ?? meta.get("sailthru.author") ?? [],
  ];
  for (const list of lists) {
    const names = [...new Set(list.map((n) => clean(decodeEntities(n))))].filter((n) =>
      !decoy(n) && n.length <= 100
    );
    if (names.length) return names.join(", ");
  }
  return "";
}

/**
 * A name that is a domain, a URL or a generic desk ("admin", "Redaktion"), or the site's (equal
 * to it or containing it) when no structured data names a Person so (`people`).
 */
export function isDecoyAuthor(n: string, sites: string[], people: string[] = []): boolean {
  if (!n || GENERIC_AUTHORS.test(n) || /^https?:\/\//i.test(n) || /^[^\s]+\.[a-z]{2,}$/i.test(n)) {
    return true;
  }
  if (people.some((p) => same(p, n))) return false;
  return sites.some((s) => same(s, n) || containsWords(n, s));
}

/** Whether `name` holds the words of `site` in a row, whole ("Redazione Gazzetta Veneta"). */
function containsWords(name: string, site: string): boolean {
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const n = words(name).join(" ");
  const s = words(site).join(" ");
  return s !== "" && ` ${n} `.includes(` ${s} `);
}

function ldPeople(v: unknown, byId: Map<string, Obj>): string[] {
  return ([] as unknown[]).concat(v ?? []).map((a) => {
    if (typeof a === "string") return a;
    if (!a || typeof a !== "object") return "";
    let o = a as Obj;
    if (typeof o["@id"] === "string" && !o.name) o = byId.get(o["@id"]) ?? o;
    return types(o).includes("organization") ? "" : str(o.name);
  }).filter(Boolean);
}

/**
 * The publication date: JSON-LD datePublished, article:published_time, Dublin Core, the other
 * <meta> dates, microdata, then a <time> that is not an update's; refined by pickDate() (dates.ts).
 */
export function pickPublished(
  doc: Document,
  meta: Map<string, string[]>,
  ld: Obj | null,
): string | null {
  const m = (...keys: string[]) => keys.map((k) => meta.get(k)?.[0]);
  const itemprop = doc.querySelector("[itemprop~=datePublished]");
  const times = [...doc.querySelectorAll("time[datetime]")].filter((t) =>
    !t.closest("nav, aside, footer, [class*=related], [class*=comment]") &&
    !/updat|modif|aktualisiert|mis à jour|actualiz/i.test(
      `${t.getAttribute("class") ?? ""} ${t.parentElement?.textContent ?? ""}`,
    )
  );
  const articleTime = times.find((t) => t.closest("article, main, [itemprop=articleBody]"));
  return pickDate([
    str(ld?.datePublished),
    ...m("article:published_time", "og:article:published_time"),
    ...m("dc.date.issued", "dcterms.issued", "dc.date", "dcterms.created", "dc.date.created"),
    ...m("date", "pubdate", "publishdate", "publish-date", "publication_date", "sailthru.date"),
    ...m("parsely-pub-date", "citation_publication_date"),
    itemprop?.getAttribute("content") ?? itemprop?.getAttribute("datetime") ?? undefined,
    doc.querySelector("time[pubdate]")?.getAttribute("datetime") ?? undefined,
    (articleTime ?? times[0])?.getAttribute("datetime") ?? undefined,
  ]);
}

/** A byline element's text without its "By" and the job title after a comma. */
export function byline(s: string | null | undefined): string {
  return clean(s).replace(/^(by|von|par|por|di|de)\s+/i, "").replace(/,\s.*$/, "")
    .replace(/\s+[·|]\s.*$/, "");
}

function same(a: string, b: string): boolean {
  const key = (s: string) => s.toLowerCase().replace(/[\s\p{P}]+/gu, "");
  return key(a) !== "" && key(a) === key(b);
}

/** Entities authors leave encoded inside JSON-LD and attributes ("Tom &amp; Jerry"). */
export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(amp|lt|gt|quot|#39|apos|#8211|#8212|nbsp);/g, (_, e) =>
    ({
      amp: "&",
      lt: "<",
      gt: ">",
      quot: '"',
      "#39": "'",
      apos: "'",
      "#8211": "–",
      "#8212": "—",
      nbsp: " ",
    })[e as string] ?? _);
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function clean(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}
