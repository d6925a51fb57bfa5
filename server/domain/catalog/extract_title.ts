/**
 * The title of an article page as a reader sees it (docs/decisions/ingestion.md "Extraction
 * precedence"): the headline most kinds of source agree on, without the site's or the hosting
 * platform's name, never a site header or a URL.
 */
import { BoundedCache } from "../../../store/bounded_cache.ts";
import { clean, decodeEntities, same, str } from "./extract_meta.ts";

type Obj = Record<string, unknown>;

/** Title separators between a headline and its site or section name. */
const SEPARATORS = /\s+[|\-–—·:»/]{1,2}\s+|\s*[｜|]\s*/;

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
  const cands = sources.map(([family, raw]) => {
    const title = clean(decodeEntities(raw));
    const value = stripSite(title, sites);
    return { family, value, pieces: pieces(title, value, sites) };
  }).filter((c) => c.value && !sites.some((s) => same(s, c.value)) && !urlLike(c.value));
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

/** A title and the pieces a separator splits it into (site names dropped); `stripped` is its stripSite. */
function pieces(title: string, stripped: string, sites: string[]): string[] {
  const out = [title, stripped];
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
  if (title === "") return title;
  let t = title;
  for (const site of sites) {
    const [after, before] = siteCuts(site);
    t = t.replace(after, "").replace(before, "").trim();
  }
  return t && !GENERIC_TITLES.test(t) ? t : title;
}

/**
 * A site's name as the two patterns stripSite cuts, kept: compiling them for every site, source
 * and page was a fifth of extraction's time in `bench:ingest` (docs/PERFORMANCE.md, issue 39).
 */
const cutsBySite = new BoundedCache<string, [RegExp, RegExp]>(2_000);
function siteCuts(site: string): [RegExp, RegExp] {
  let cuts = cutsBySite.get(site);
  if (!cuts) {
    const esc = site.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    cuts = [
      new RegExp(`(?:${SEPARATORS.source})${esc}$`, "i"),
      new RegExp(`^${esc}(?:${SEPARATORS.source})`, "i"),
    ];
    cutsBySite.set(site, cuts);
  }
  return cuts;
}

const GENERIC_TITLES = /^(home|homepage|blog|posts?|articles?|news|index|page|untitled)$/i;
