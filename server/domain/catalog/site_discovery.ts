/**
 * Finding a site's articles the ways crawlers do (issue 30; sitemaps.org protocol; RFC 9309
 * section 2.2.4 lets robots.txt carry `Sitemap:` lines): the sitemaps its robots.txt names, else
 * /sitemap.xml; sitemap indexes (followed to MAX_DEPTH, each document read once, so an index that
 * lists itself ends); gzip sitemaps, inflated with DecompressionStream and cut at 50 MB, so a gzip
 * bomb is refused after 50 MB of output; Google News sitemaps; and the RSS and Atom feeds the site's
 * page links with `<link rel="alternate">`. Every request goes through the guarded fetcher (with
 * its deadline, which also ends a body that never does) and is asked of robots.txt first.
 */
import { parseHTML } from "linkedom";
import { getRobots } from "../../../store/robots.ts";
import type { ListedPage } from "../../../store/sites.ts";
import type { AppDeps } from "../../deps.ts";
import { FetchRefused } from "./fetcher.ts";
import { categoryOf, PAGE_MAX_BYTES } from "./ingest_url.ts";
import { robotsVerdict } from "./robots.ts";
import {
  type DocumentKind,
  type Listed,
  MAX_SITEMAP_BYTES,
  type ReadDocument,
  tooLarge,
} from "./site_documents.ts";
import { DocumentStream, readBytes } from "./site_stream.ts";

/** Bounds of one discovery; production defaults below, tests lower some. */
export interface DiscoveryLimits {
  /** Documents (pages, sitemaps, feeds) fetched per run. */
  maxDocuments: number;
  /** Pages kept per run (the CSV's row limit). */
  maxPages: number;
  /** Bytes per document, compressed or not (sitemaps.org: 50 MB uncompressed). */
  maxBytes: number;
  /** Per-document deadline; the fetcher's default when unset. */
  timeoutMs?: number;
}

export const DISCOVERY_LIMITS: DiscoveryLimits = {
  maxDocuments: 1000,
  maxPages: 200_000,
  maxBytes: MAX_SITEMAP_BYTES,
};
/** An index that lists an index that lists a sitemap is as deep as we follow. */
const MAX_DEPTH = 3;
const MAX_FEEDS_PER_PAGE = 10;
const MAX_ROBOTS_SITEMAPS = 100;

const LISTING_TYPES = [
  "application/xml",
  "text/xml",
  "application/rss+xml",
  "application/atom+xml",
  "application/rdf+xml",
  "application/feed+json",
  "application/json",
  "application/gzip",
  "application/x-gzip",
  "application/octet-stream",
  "text/plain",
];
const HTML_TYPES = ["text/html", "application/xhtml+xml"];
const FEED_TYPES = new Set([
  "application/rss+xml",
  "application/atom+xml",
  "application/rdf+xml",
  "application/feed+json",
]);

/** How a document came to be read. */
type Found = "site" | "robots.txt" | "guess" | "page" | "index";

/** One document read, for the job's report. */
export interface DocumentReport {
  url: string;
  kind: DocumentKind | "page";
  found: Found;
  /** Pages (or, for an index, sitemaps) it listed. */
  listed: number;
  problem: string | null;
}

/** What a discovery found (its pages were handed over to `onPages` as they were read). */
export interface SiteDiscovery {
  /** Pages of the site listed, each counted once (as `onPages` counted them). */
  pages: number;
  documents: DocumentReport[];
  /** Listed URLs on another host, left out. */
  offSite: number;
  /** Problems worth the publisher's attention, in words (a missing guessed sitemap is not one). */
  problems: string[];
}

/**
 * Takes a batch of the pages found, as they are read: answers how many of them it had not been
 * handed before (the same page may be listed by a sitemap and a feed).
 */
export type PagesSink = (pages: ListedPage[]) => Promise<number>;

/** The site could not be reached at all. */
export class SiteUnreachable extends Error {}

/**
 * Finds the pages `siteUrl` lists in its sitemaps and feeds, handing them to `onPages` in batches
 * as each document is read: nothing is held per page (issue 39), however many the site lists.
 */
export async function discoverSite(
  deps: Pick<AppDeps, "store" | "clock" | "fetcher" | "log">,
  publisherId: string,
  siteUrl: string,
  opts: {
    onPages: PagesSink;
    signal?: AbortSignal;
    limits?: Partial<DiscoveryLimits>;
    onDocument?: () => unknown;
  },
): Promise<SiteDiscovery> {
  const limits = { ...DISCOVERY_LIMITS, ...opts.limits };
  const site = new URL(siteUrl);
  const first = await robotsVerdict(deps, publisherId, site.href);
  if ("refused" in first) throw new SiteUnreachable(first.refused.detail);
  const robots = await getRobots(deps.store.db, publisherId, site.origin);
  if (robots?.status === 0) {
    throw new SiteUnreachable(`${site.origin}/robots.txt got no answer (refused or timed out)`);
  }
  const named = sitemapLines(robots?.body ?? "", site.href);

  const out: SiteDiscovery = { pages: 0, documents: [], offSite: 0, problems: [] };
  const seen = new Set<string>();
  const queue: { url: string; found: Found; depth: number }[] = [];
  const push = (url: string, found: Found, depth: number) => {
    const key = url.replace(/#.*$/, "");
    if (seen.has(key)) return;
    seen.add(key);
    queue.push({ url: key, found, depth });
  };
  push(site.href, "site", 0);
  if (named.length) { for (const u of named) push(u, "robots.txt", 0); }
  else push(`${site.origin}/sitemap.xml`, "guess", 0);

  let pagesCut = false;
  /** The site's own http(s) pages of a batch, without fragments, up to the run's limit. */
  const take = async (listed: Listed[]) => {
    const pages: ListedPage[] = [];
    for (const page of listed) {
      if (!/^https?:$/.test(new URL(page.url).protocol)) continue;
      if (!sameSite(page.url, site)) {
        out.offSite++;
        continue;
      }
      pages.push({ url: page.url.replace(/#.*$/, ""), lastmod: page.lastmod, title: page.title });
    }
    const room = limits.maxPages - out.pages;
    if (pages.length > room) pagesCut = true;
    if (room > 0 && pages.length) out.pages += await opts.onPages(pages.slice(0, room));
  };
  while (queue.length && !opts.signal?.aborted) {
    if (out.documents.length >= limits.maxDocuments) {
      out.problems.push(
        `more than ${limits.maxDocuments} sitemaps and feeds; ${queue.length} were not read`,
      );
      break;
    }
    const doc = queue.shift()!;
    await opts.onDocument?.();
    const report = await readOne(deps, publisherId, doc, limits, take, opts.signal);
    out.documents.push(report.report);
    const { read } = report;
    if (report.report.problem && !(doc.found === "guess" && read === null)) {
      out.problems.push(`${doc.url}: ${report.report.problem}`);
    }
    for (const feed of report.feeds) push(feed, "page", doc.depth + 1);
    if (!read) continue;
    for (const child of read.sitemaps) {
      if (doc.depth + 1 > MAX_DEPTH) {
        out.problems.push(`${doc.url}: indexes nested deeper than ${MAX_DEPTH} are not followed`);
        break;
      }
      // An index on another host (robots.txt may name one: sitemaps.org "cross submits") may
      // list sitemaps on its own host; the pages they list must still be the site's.
      if (sameSite(child.url, site) || sameSite(child.url, new URL(doc.url))) {
        push(child.url, "index", doc.depth + 1);
      } else out.offSite++;
    }
  }
  if (pagesCut) {
    out.problems.push(`more than ${limits.maxPages} pages listed; the rest were not queued`);
  }
  return out;
}

async function readOne(
  deps: Pick<AppDeps, "store" | "clock" | "fetcher" | "log">,
  publisherId: string,
  doc: { url: string; found: Found },
  limits: DiscoveryLimits,
  onPages: (pages: Listed[]) => Promise<unknown>,
  signal?: AbortSignal,
): Promise<{ report: DocumentReport; read: ReadDocument | null; feeds: string[] }> {
  const report: DocumentReport = {
    url: doc.url,
    kind: "unknown",
    found: doc.found,
    listed: 0,
    problem: null,
  };
  const verdict = await robotsVerdict(deps, publisherId, doc.url);
  if ("refused" in verdict || !verdict.allowed) {
    report.problem = "refused" in verdict ? verdict.refused.detail : verdict.reason;
    return { report, read: null, feeds: [] };
  }
  const site = doc.found === "site";
  let res;
  let stream: DocumentStream | null = null;
  try {
    res = await deps.fetcher.fetch(doc.url, {
      accept: site ? [...HTML_TYPES, ...LISTING_TYPES] : LISTING_TYPES.concat(HTML_TYPES),
      maxBytes: site ? Math.min(PAGE_MAX_BYTES, limits.maxBytes) : limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      signal,
      // A listing is read as it arrives, never held whole (site_stream.ts); the site's own page
      // is an HTML page like any other.
      sink: site ? undefined : (r) => {
        stream = new DocumentStream(r.url, r.contentType, {
          maxBytes: limits.maxBytes,
          htmlMaxBytes: Math.min(PAGE_MAX_BYTES, limits.maxBytes),
          onPages,
        });
        return (chunk) => stream!.push(chunk);
      },
    });
  } catch (e) {
    if (!(e instanceof FetchRefused)) throw e;
    // The entries read before the cut were handed over as they came; the rest of them go too,
    // as for a document cut by its size or a fault.
    if (stream) await (stream as DocumentStream).end().catch(() => {});
    report.problem = e.code === "too_large"
      ? tooLarge(limits.maxBytes)
      : `${categoryOf(e)}: ${e.detail}`;
    return { report, read: null, feeds: [] };
  }
  const type = res.contentType.split(";")[0].trim().toLowerCase();
  const got = stream
    ? await (stream as DocumentStream).end()
    : HTML_TYPES.includes(type) || /^\s*<(!doctype html|html)/i.test(head(res.bytes))
    ? { html: res.text() }
    : await readBytes(res.bytes, res.url, res.contentType, limits.maxBytes, onPages);
  if ("html" in got) {
    report.kind = "page";
    const feeds = feedLinks(got.html, res.url);
    report.listed = feeds.length;
    return { report, read: null, feeds };
  }
  const { read } = got;
  report.kind = read.kind;
  report.listed = read.kind === "sitemapindex" ? read.sitemaps.length : read.pageCount;
  report.problem = read.problem;
  return { report, read, feeds: [] };
}

/** Reads a sitemap or feed held in memory, inflating gzip (cut at `maxBytes` of output). */
export async function readDocument(
  bytes: Uint8Array,
  url: string,
  type: string,
  maxBytes: number,
): Promise<ReadDocument> {
  const got = await readBytes(bytes, url, type, maxBytes);
  return "read" in got ? got.read : {
    kind: "unknown",
    root: "html",
    pages: [],
    pageCount: 0,
    sitemaps: [],
    problem: "not a sitemap or feed (root element <html>)",
  };
}

function head(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(0, 512));
}

/** `Sitemap:` lines of a robots.txt (RFC 9309 section 2.2.4), absolute http(s) URLs only. */
export function sitemapLines(body: string, base: string): string[] {
  const out: string[] = [];
  // Google also accepts `Site-map:` (its robots.txt parser), so it counts too.
  for (const m of body.matchAll(/^[ \t]*site-?map[ \t]*:[ \t]*(\S+)/gim)) {
    try {
      const u = new URL(m[1], base);
      if (u.protocol === "http:" || u.protocol === "https:") out.push(u.href);
    } catch { /* not a URL */ }
    if (out.length >= MAX_ROBOTS_SITEMAPS) break;
  }
  return out;
}

/** The RSS, Atom, RDF and JSON feeds a page links with `<link rel="alternate" type=…>`. */
export function feedLinks(html: string, base: string): string[] {
  const { document } = parseHTML(html);
  const out: string[] = [];
  for (const link of document.querySelectorAll("link[href]")) {
    const rel = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    const type = (link.getAttribute("type") ?? "").toLowerCase().trim();
    if (!rel.includes("alternate")) continue;
    let url: URL;
    try {
      url = new URL(link.getAttribute("href")!, base);
    } catch {
      continue; // not a URL
    }
    // JSON Feed 1.0 was linked as plain application/json, a type WordPress also gives its REST
    // API's link on every page (`/wp-json/wp/v2/…`): only a `.json` file is taken for a feed.
    const feed = FEED_TYPES.has(type) ||
      (type === "application/json" && /\.json$/i.test(url.pathname));
    if (!feed) continue;
    out.push(url.href);
    if (out.length >= MAX_FEEDS_PER_PAGE) break;
  }
  return out;
}

/** Same host, a leading "www." aside (sitemaps.org: a sitemap lists URLs of its own host). */
function sameSite(url: string, site: URL): boolean {
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, "");
  try {
    return bare(new URL(url).hostname) === bare(site.hostname);
  } catch {
    return false;
  }
}
