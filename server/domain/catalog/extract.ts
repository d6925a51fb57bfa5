/**
 * Article extraction from real-world HTML: @mozilla/readability over a linkedom document for the
 * main content, after clutter it does not know (cookie banners, newsletter boxes, print footers)
 * is taken out; the metadata is read first by extract_meta.ts, each field with its own precedence.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToText } from "./html_text.ts";
import { plainNames, removeClutter } from "./clutter.ts";
import { dropFurniture, removeFurniture } from "./furniture.ts";
import { normaliseDate } from "./dates.ts";
import {
  byline,
  clean,
  decodeEntities,
  jsonLd,
  metaTags,
  pickPublished,
  siteNames,
  str,
} from "./extract_meta.ts";
import { pickTitle } from "./extract_title.ts";
import { authorKind, pickAuthor } from "./extract_author.ts";

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

type Obj = Record<string, unknown>;

const MAX_SUMMARY = 1000;
/**
 * Readability's own default: a first pass shorter than this is retried with fewer heuristics, so a
 * 200-character newsletter box can no longer pass for the article.
 */
const CHAR_THRESHOLD = 500;

/** Extracts an article from `html` fetched from `url` (the final URL, for relative links). */
export function extractArticle(html: string, url: string): Extracted {
  const doc = parsePage(html);
  const ld = jsonLd(doc);
  const article = ld.article;
  const meta = metaTags(doc);
  const sites = siteNames(meta, article);
  const canonicalUrl = absolute(
    attr(doc.querySelector('link[rel~="canonical"]'), "href") ?? meta.get("og:url")?.[0] ??
      ldUrl(article),
    url,
  );
  // Readability mutates the document, so metadata is read first.
  const title = pickTitle(doc, meta, article, sites, url);
  const author = pickAuthor(doc, meta, ld, sites);
  const published = pickPublished(doc, meta, article);
  removeClutter(doc);
  removeFurniture(doc);
  plainNames(doc);
  let readable: ReturnType<Readability<string>["parse"]> = null;
  try {
    readable = new Readability(doc, { charThreshold: CHAR_THRESHOLD }).parse();
  } catch {
    readable = null;
  }
  const body = readable?.content ? htmlToText(readable.content) : fallbackBody(html);
  const publishedAt = published ??
    (readable?.publishedTime ? normaliseDate(readable.publishedTime) : null);
  const text = dropTailChrome(
    dropFurniture(dropLeadChrome(body, { title, author }).split("\n\n")).join("\n\n"),
  );
  const summary = first(
    str(article?.description),
    meta.get("og:description")?.[0],
    meta.get("description")?.[0],
    meta.get("dc.description")?.[0],
    meta.get("twitter:description")?.[0],
    // The body's first paragraph, not Readability's excerpt: that is the first <p> it kept, a
    // byline ("By Ana Silva") when metadata named the author first.
    text.split("\n\n").find((b) => b.trim() !== "" && !b.startsWith("## ")),
    readable?.excerpt,
  ).slice(0, MAX_SUMMARY);
  const tags = firstList(
    ldKeywords(article?.keywords),
    meta.get("article:tag") ?? [],
    splitKeywords(meta.get("keywords")?.[0] ?? meta.get("news_keywords")?.[0] ?? ""),
  );
  return {
    title: title || clean(readable?.title),
    author: author || readableAuthor(byline(readable?.byline), sites, ld),
    publishedAt,
    summary,
    tags,
    body: text,
    canonicalUrl,
  };
}

/** Readability's byline when no source named anyone, unless it is a decoy (extract_author.ts). */
function readableAuthor(
  name: string,
  sites: string[],
  ld: { people: string[]; orgs: string[] },
): string {
  return authorKind(name, { sites, people: ld.people, orgs: ld.orgs }) === "decoy" ? "" : name;
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

/** Sharing prompts, copyright and print lines that trail the article's last paragraph. */
const TAIL =
  /^(©|\(c\)|copyright|all rights reserved|share( this)?|teilen|partager|compartir|condividi|print(ed)?( from)?|drucken|imprimer|tags?:|etiquetas:|schlagwörter|mots-clés|read more|more on this|related|mehr zum thema|lire aussi|lee también|leggi anche|advertisement|anzeige|publicité|publicidad|publicidade)\b/i;

function dropTailChrome(body: string): string {
  const blocks = body.split("\n\n");
  let end = blocks.length;
  while (end > 1 && blocks[end - 1].split(/\s+/).length <= 40 && TAIL.test(blocks[end - 1])) end--;
  return blocks.slice(0, end).join("\n\n");
}

function ldKeywords(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((k) => clean(String(k))).filter(Boolean);
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
  return s.split(/[,;]/).map((k) => clean(k)).filter(Boolean);
}

function attr(el: Element | null, name: string): string | undefined {
  return el?.getAttribute(name)?.trim() || undefined;
}

function first(...values: (string | null | undefined)[]): string {
  for (const v of values) {
    const t = clean(v);
    if (t) return decodeEntities(t);
  }
  return "";
}

function firstList(...lists: string[][]): string[] {
  for (const l of lists) if (l.length) return [...new Set(l.map(decodeEntities))].slice(0, 50);
  return [];
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

/** When Readability finds no article, keep the paragraphs of the page rather than nothing. */
function fallbackBody(html: string): string {
  const document = parsePage(html);
  for (const el of document.querySelectorAll("script, style, nav, header, footer, noscript")) {
    el.remove();
  }
  return htmlToText(document.body?.innerHTML ?? "");
}

/** linkedom builds no document element for text without an <html> tag: give it one. */
function parsePage(html: string): Document {
  const whole = /<html[\s>]/i.test(html) ? html : `<html><body>${html}</body></html>`;
  return parseHTML(whole).document as unknown as Document;
}
