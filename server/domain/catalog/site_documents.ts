/**
 * Reading the documents a site lists its articles in (issue 30): XML sitemaps and sitemap indexes
 * (sitemaps.org protocol, Google News sitemaps), RSS 2.0, RSS 1.0 (RDF) and Atom feeds, and plain
 * text sitemaps. The XML is read by saxes, a strict streaming parser, fed in slices: memory stays
 * bounded by what is kept (at most MAX_LISTED entries), never by the file. A document that is not
 * well-formed keeps the entries complete before its first fault, and names the fault.
 */
import { SaxesParser } from "saxes";

/** sitemaps.org: a sitemap or index lists at most 50,000 URLs and is at most 50 MB uncompressed. */
export const MAX_LISTED = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/** What a document turned out to be, by its root element (or type, for text). */
export type DocumentKind = "urlset" | "sitemapindex" | "rss" | "rdf" | "atom" | "text" | "unknown";

/** One URL a document lists: a page, or (in an index) a sitemap. */
export interface Listed {
  url: string;
  /** ms since the epoch: sitemap lastmod, news publication date, feed updated/pubDate. */
  lastmod: number | null;
  title: string | null;
}

/** A document read to its end (or to the limit). */
export interface ReadDocument {
  kind: DocumentKind;
  /** The root element's name when the kind is unknown (e.g. "html"). */
  root: string | null;
  pages: Listed[];
  sitemaps: Listed[];
  /** The first fault or limit met, in words; null for a clean document. */
  problem: string | null;
}

const FIELD_MAX = 4096;
const ENTRY: Record<string, string> = {
  urlset: "url",
  sitemapindex: "sitemap",
  rss: "item",
  rdf: "item",
  atom: "entry",
};

const local = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * A streaming reader of one document: `write()` slices of its text, then `end()`. `full` turns
 * true once MAX_LISTED entries are kept; the caller may stop writing.
 */
export class DocumentReader {
  readonly #base: string;
  readonly #parser = new SaxesParser({ position: true });
  readonly #out: ReadDocument = {
    kind: "unknown",
    root: null,
    pages: [],
    sitemaps: [],
    problem: null,
  };
  #entry: { url: string | null; lastmod: number | null; title: string | null } | null = null;
  #field: string | null = null;
  #text = "";
  #depth = 0;
  #entryDepth = -1;
  #skipped = 0;
  #stopped = false;
  #faulted = false;

  constructor(base: string) {
    this.#base = base;
    const p = this.#parser;
    p.on("error", (e) => {
      const m = /(\d+):(\d+): (.*?)\.?$/.exec(e.message);
      this.#out.problem ??= m
        ? `not well-formed XML: ${m[3]} (line ${m[1]}, column ${m[2]})`
        : `not well-formed XML: ${e.message}`;
      // What follows a fault may be anything: only entries complete before it are kept.
      this.#faulted = true;
    });
    p.on("opentag", (tag) => this.#open(tag.name, tag.attributes as Record<string, string>));
    p.on("closetag", (tag) => this.#close(tag.name));
    p.on("text", (t) => this.#append(t));
    p.on("cdata", (t) => this.#append(t));
  }

  /** True once the entry limit is reached. */
  get full(): boolean {
    return this.#stopped || this.#faulted;
  }

  write(text: string): void {
    if (!this.full) this.#parser.write(text);
  }

  end(): ReadDocument {
    if (!this.full) this.#parser.close();
    if (this.#skipped > 0) {
      this.#out.problem = `lists more than ${MAX_LISTED.toLocaleString("en")} URLs (the ` +
        `sitemaps.org limit); the first ${MAX_LISTED.toLocaleString("en")} were read`;
    }
    if (this.#out.kind === "unknown" && !this.#out.problem) {
      this.#out.problem = this.#out.root
        ? `not a sitemap or feed (root element <${this.#out.root}>)`
        : "empty document";
    }
    return this.#out;
  }

  #open(raw: string, attrs: Record<string, string>) {
    const name = local(raw);
    this.#depth++;
    if (this.#depth === 1) {
      const kind = name === "RDF" ? "rdf" : name === "feed" ? "atom" : name;
      if (kind in ENTRY) this.#out.kind = kind as DocumentKind;
      else this.#out.root = name;
      return;
    }
    const kind = this.#out.kind;
    if (kind === "unknown") return;
    if (!this.#entry && name === ENTRY[kind]) {
      this.#entry = {
        url: kind === "rdf" ? attrs["rdf:about"] ?? null : null,
        lastmod: null,
        title: null,
      };
      this.#entryDepth = this.#depth;
      return;
    }
    if (!this.#entry) return;
    if (kind === "atom" && raw === "link") {
      const rel = attrs.rel ?? "alternate";
      if (rel === "alternate" && attrs.href && !this.#entry.url) this.#entry.url = attrs.href;
      return;
    }
    if (this.#field === null && wanted(raw, attrs)) {
      this.#field = raw;
      this.#text = "";
    }
  }

  #append(t: string) {
    if (this.#field !== null && this.#text.length < FIELD_MAX) this.#text += t;
  }

  #close(raw: string) {
    const name = local(raw);
    const e = this.#entry;
    if (e && this.#field === raw) {
      const value = this.#text.trim();
      this.#field = null;
      if (name === "loc" || name === "link") e.url ??= value || null;
      else if (name === "guid") e.url ??= /^https?:\/\//i.test(value) ? value : null;
      else if (name === "title") e.title ??= value.slice(0, 500) || null;
      else {
        const at = Date.parse(value);
        // lastmod beats a news publication date; an Atom entry's updated beats published.
        if (
          Number.isFinite(at) && (e.lastmod === null || name === "lastmod" || name === "updated")
        ) {
          e.lastmod = at;
        }
      }
    }
    if (e && this.#depth === this.#entryDepth) {
      this.#entry = null;
      this.#keep(e);
    }
    this.#depth--;
  }

  #keep(e: { url: string | null; lastmod: number | null; title: string | null }) {
    if (!e.url || this.#faulted) return;
    const list = this.#out.kind === "sitemapindex" ? this.#out.sitemaps : this.#out.pages;
    if (list.length >= MAX_LISTED) {
      this.#skipped++;
      this.#stopped = true;
      return;
    }
    let url: string;
    try {
      url = new URL(e.url, this.#base).href;
    } catch {
      return;
    }
    list.push({ url, lastmod: e.lastmod, title: e.title });
  }
}

/** Fields kept from an entry, by their name as written (an image:loc is not the page's loc). */
const FIELDS = new Set([
  "loc",
  "link",
  "lastmod",
  "news:publication_date",
  "pubDate",
  "updated",
  "published",
  "dc:date",
  "title",
  "news:title",
]);

function wanted(raw: string, attrs: Record<string, string>): boolean {
  if (raw === "guid") return attrs.isPermaLink !== "false";
  return FIELDS.has(raw);
}

/** A plain text sitemap (sitemaps.org "Text file"): one URL per line, at most MAX_LISTED. */
export function readTextSitemap(text: string, base: string): ReadDocument {
  const out: ReadDocument = { kind: "text", root: null, pages: [], sitemaps: [], problem: null };
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (!/^https?:\/\//i.test(t)) continue;
    if (out.pages.length >= MAX_LISTED) {
      out.problem = `lists more than ${MAX_LISTED.toLocaleString("en")} URLs (the sitemaps.org ` +
        `limit); the first ${MAX_LISTED.toLocaleString("en")} were read`;
      break;
    }
    try {
      out.pages.push({ url: new URL(t, base).href, lastmod: null, title: null });
    } catch { /* not a URL: skipped like any other line */ }
  }
  if (out.pages.length === 0) out.problem = "no URLs in the text file";
  return out;
}
