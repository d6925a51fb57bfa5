/**
 * Article extraction from real-world HTML: @mozilla/readability over a linkedom document for the
 * main content; JSON-LD (schema.org NewsArticle/Article/BlogPosting, including @graph), OpenGraph
 * and <meta> tags win for the metadata where present, in that order.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToText } from "./html_text.ts";
import { normaliseDate } from "./dates.ts";

/** What an article page says about itself. */
export interface Extracted {
  title: string;
  author: string;
  /** ISO 8601 UTC, or null when the page states no readable date. */
  publishedAt: string | null;
  summary: string;
  tags: string[];
  /** Clean text: "## " heading lines, paragraphs separated by blank lines (search/chunker.ts). */
  body: string;
  canonicalUrl: string | null;
}

const ARTICLE_TYPES = new Set([
  "article",
  "newsarticle",
  "blogposting",
  "reportagenewsarticle",
  "analysisnewsarticle",
  "opinionnewsarticle",
  "techarticle",
  "scholarlyarticle",
  "report",
]);
const MAX_SUMMARY = 1000;

/** Extracts an article from `html` fetched from `url` (the final URL, for relative links). */
export function extractArticle(html: string, url: string): Extracted {
  const { document } = parseHTML(html);
  const doc = document as unknown as Document;
  const ld = jsonLdArticle(doc);
  const meta = metaTags(doc);
  const canonicalUrl = absolute(
    attr(doc.querySelector('link[rel~="canonical"]'), "href") ?? meta.get("og:url")?.[0] ??
      ldUrl(ld),
    url,
  );
  // Readability mutates the document, so metadata is read first.
  const titleTag = text(doc.querySelector("title")?.textContent);
  const timeTag = attr(doc.querySelector("article time[datetime], time[datetime]"), "datetime");
  let readable: ReturnType<Readability<string>["parse"]> = null;
  try {
    readable = new Readability(doc, { charThreshold: 200 }).parse();
  } catch {
    readable = null;
  }
  const body = readable?.content ? htmlToText(readable.content) : fallbackBody(html);
  const title = first(
    str(ld?.headline),
    str(ld?.name),
    meta.get("og:title")?.[0],
    meta.get("twitter:title")?.[0],
    readable?.title,
    titleTag,
  );
  const author = first(
    ldAuthor(ld?.author),
    ...(meta.get("article:author") ?? []).filter((a) => !/^https?:\/\//i.test(a)),
    meta.get("author")?.[0],
    meta.get("parsely-author")?.[0],
    byline(readable?.byline),
  );
  const publishedAt = firstDate(
    str(ld?.datePublished),
    meta.get("article:published_time")?.[0],
    meta.get("date")?.[0],
    meta.get("pubdate")?.[0],
    meta.get("dc.date")?.[0],
    readable?.publishedTime ?? undefined,
    timeTag ?? undefined,
  );
  const summary = first(
    str(ld?.description),
    meta.get("og:description")?.[0],
    meta.get("description")?.[0],
    meta.get("twitter:description")?.[0],
    readable?.excerpt,
  ).slice(0, MAX_SUMMARY);
  const tags = firstList(
    ldKeywords(ld?.keywords),
    meta.get("article:tag") ?? [],
    splitKeywords(meta.get("keywords")?.[0] ?? meta.get("news_keywords")?.[0] ?? ""),
  );
  return {
    title,
    author,
    publishedAt,
    summary,
    tags,
    body: dropLeadChrome(body, { title, author }),
    canonicalUrl,
  };
}

/** Byline, dateline and repeated-title lines Readability leaves at the top of the body. */
function dropLeadChrome(body: string, meta: { title: string; author: string }): string {
  const blocks = body.split("\n\n");
  let i = 0;
  for (; i < blocks.length && i < 6; i++) {
    const b = blocks[i].trim();
    const short = b.split(/\s+/).length <= 12;
    const lead = short && (
      /^(by|von|par|por)\s/i.test(b) || (meta.author !== "" && b === meta.author) ||
      b === meta.title || b === `## ${meta.title}` || normaliseDate(b) !== null ||
      /^(updated|published)\b/i.test(b)
    );
    if (!lead) break;
  }
  return blocks.slice(i).join("\n\n");
}

type Obj = Record<string, unknown>;

/** The first schema.org article object in the page's JSON-LD blocks, looking inside @graph. */
function jsonLdArticle(doc: Document): Obj | null {
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? "");
    } catch {
      continue; // a broken block is common in the wild; the others may still be good
    }
    const found = findArticle(data, 0);
    if (found) return found;
  }
  return null;
}

function findArticle(node: unknown, depth: number): Obj | null {
  if (depth > 5 || node === null || typeof node !== "object") return null;
  if (Array.isArray(node)) {
    for (const n of node) {
      const f = findArticle(n, depth + 1);
      if (f) return f;
    }
    return null;
  }
  const o = node as Obj;
  const types = ([] as unknown[]).concat(o["@type"] ?? []).map((t) => String(t).toLowerCase());
  if (types.some((t) => ARTICLE_TYPES.has(t))) return o;
  return findArticle(o["@graph"], depth + 1);
}

function metaTags(doc: Document): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of doc.querySelectorAll("meta")) {
    const key = (m.getAttribute("property") ?? m.getAttribute("name") ?? "").trim().toLowerCase();
    const content = text(m.getAttribute("content"));
    if (!key || !content) continue;
    out.set(key, [...(out.get(key) ?? []), content]);
  }
  return out;
}

function ldAuthor(v: unknown): string {
  const names = ([] as unknown[]).concat(v ?? []).map((a) =>
    typeof a === "string" ? a : a && typeof a === "object" ? str((a as Obj).name) : ""
  ).map((n) => text(n)).filter((n) => n && !/^https?:\/\//i.test(n));
  return names.join(", ");
}

function ldKeywords(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((k) => text(String(k))).filter(Boolean);
  return typeof v === "string" ? splitKeywords(v) : [];
}

function ldUrl(ld: Obj | null): string | undefined {
  const main = ld?.mainEntityOfPage;
  if (typeof main === "string") return main;
  if (main && typeof main === "object" && typeof (main as Obj)["@id"] === "string") {
    return (main as Obj)["@id"] as string;
  }
  return str(ld?.url) || undefined;
}

function splitKeywords(s: string): string[] {
  return s.split(/[,;]/).map((k) => text(k)).filter(Boolean);
}

function byline(s: string | null | undefined): string {
  return text(s).replace(/^by\s+/i, "");
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function text(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

function attr(el: Element | null, name: string): string | undefined {
  return el?.getAttribute(name)?.trim() || undefined;
}

function first(...values: (string | null | undefined)[]): string {
  for (const v of values) {
    const t = text(v);
    if (t) return decodeEntities(t);
  }
  return "";
}

function firstList(...lists: string[][]): string[] {
  for (const l of lists) if (l.length) return [...new Set(l.map(decodeEntities))].slice(0, 50);
  return [];
}

function firstDate(...values: (string | undefined)[]): string | null {
  for (const v of values) {
    const d = v ? normaliseDate(v) : null;
    if (d) return d;
  }
  return null;
}

function absolute(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href, base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** Entities JSON-LD authors sometimes leave encoded inside strings ("Tom &amp; Jerry"). */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(
    /&(amp|lt|gt|quot|#39|apos);/g,
    (_, e) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" })[e as string] ?? _,
  );
}

/** When Readability finds no article, keep the paragraphs of the page rather than nothing. */
function fallbackBody(html: string): string {
  const { document } = parseHTML(html);
  for (const el of document.querySelectorAll("script, style, nav, header, footer, noscript")) {
    el.remove();
  }
  return htmlToText(document.body?.innerHTML ?? "");
}
