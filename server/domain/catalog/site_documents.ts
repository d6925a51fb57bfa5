/**
 * Reading the documents a site lists its articles in (issue 30): XML sitemaps and sitemap indexes
 * (sitemaps.org protocol, Google News sitemaps), RSS 2.0, RSS 1.0 (RDF) and Atom feeds, and plain
 * text sitemaps. The XML is read by saxes, a strict streaming parser, fed in slices: memory stays
 * bounded by what is kept (at most MAX_LISTED entries), never by the file. What real feeds get
 * wrong and feed readers forgive is repaired or read past (xml_repair.ts: bare ampersands, HTML
 * entities; here: close tags read as an HTML parser reads them, control characters), and named as
 * the document's problem; at any other fault only the entries complete before it are kept.
 */
import { SaxesParser } from "saxes";
import { BareAmpersands, HTML_ENTITIES } from "./xml_repair.ts";

/** sitemaps.org: a sitemap or index lists at most 50,000 URLs and is at most 50 MB uncompressed. */
export const MAX_LISTED = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/** What a document turned out to be, by its root element (or type, for text; JSON Feed, json). */
export type DocumentKind =
  | "urlset"
  | "sitemapindex"
  | "rss"
  | "rdf"
  | "atom"
  | "json"
  | "text"
  | "unknown";

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
  /** The pages not yet handed over (`takePages()`): all of them, when nothing was taken. */
  pages: Listed[];
  /** How many pages it listed, those handed over on the way included. */
  pageCount: number;
  sitemaps: Listed[];
  /** The first fault or limit met, in words; null for a clean document. */
  problem: string | null;
}

const FIELD_MAX = 4096;
/**
 * Bounds on what saxes holds between two events, so memory follows the limit and what is kept,
 * not the file: no listing nests this deep, and no text, comment or attribute between two tags
 * of a sitemap or feed runs this long (a feed's whole article in CDATA stays far below it).
 */
const MAX_NESTING = 64;
const MAX_RUN_CHARS = 4 * 1024 * 1024;

/** The words for a document over `max` bytes. */
export function tooLarge(max: number, what?: string): string {
  return `larger than ${max / 1024 / 1024} MB${what ? ` ${what}` : ""}`;
}
const ENTRY: Record<string, string> = {
  urlset: "url",
  sitemapindex: "sitemap",
  rss: "item",
  rdf: "item",
  atom: "entry",
};

const local = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Faults read past with the element structure intact (the reader's own stack of open elements
 * settles the close tags): a close tag that skips open ones (an unclosed `<br>`) closes them, a
 * stray one closes nothing, a truncated document closes at its end; a control character stays.
 */
const READ_PAST = /^(?:unclosed tag: .*|disallowed character|text data outside of root node)$/;

const copier = { encoder: new TextEncoder(), decoder: new TextDecoder() };
/**
 * A string of its own. What the parser hands over is a slice of the piece of text it was given
 * (V8 sliced strings), and a slice kept keeps the whole 32 KB piece alive: 200 MB of listing
 * held 215 MB of heap through the 49,000 URLs kept from it (issue 39). A copy holds itself only.
 */
function own(s: string): string {
  return s.length < 16 ? s : copier.decoder.decode(copier.encoder.encode(s));
}

/**
 * A streaming reader of one document: `write()` slices of its text, then `end()`. `full` turns
 * true once MAX_LISTED entries are kept; the caller may stop writing.
 */
export class DocumentReader {
  readonly #base: string;
  readonly #parser = new SaxesParser({ position: true });
  readonly #ampersands = new BareAmpersands();
  readonly #out: ReadDocument = {
    kind: "unknown",
    root: null,
    pages: [],
    pageCount: 0,
    sitemaps: [],
    problem: null,
  };
  #entry: { url: string | null; lastmod: number | null; title: string | null } | null = null;
  #field: string | null = null;
  #text = "";
  /** The elements open, as this reader sees them (saxes's own stack may have closed more). */
  #stack: string[] = [];
  #entryDepth = -1;
  #skipped = 0;
  #stopped = false;
  #faulted = false;
  /** Characters written since saxes last emitted something (what it may be holding). */
  #run = 0;
  /**
   * Close tags saxes reported that the next event settles: marked when saxes said the tag it
   * closed was not the one named (it closes open elements until it finds the name).
   */
  #closing: { name: string; skipped: boolean }[] = [];
  /** What saxes writes into the text for each close tag it matched to nothing (`</name>`). */
  #echoed = "";

  constructor(base: string) {
    this.#base = base;
    const p = this.#parser;
    p.ENTITIES = HTML_ENTITIES;
    p.on("error", (e) => {
      const m = /(\d+):(\d+): (.*?)\.?$/.exec(e.message);
      this.#out.problem ??= m
        ? `not well-formed XML: ${m[3]} (line ${m[1]}, column ${m[2]})`
        : `not well-formed XML: ${e.message}`;
      const said = m?.[3] ?? "";
      if (said === "unexpected close tag") {
        const last = this.#closing.at(-1);
        if (last) last.skipped = true;
        return;
      }
      const unmatched = /^unmatched closing tag: (.+)$/.exec(said);
      if (unmatched) {
        // No element open in saxes had the name, so it closed them all; an HTML parser closes
        // none of them, and closes the name's element where this reader still has it open.
        while (this.#closing.at(-1)?.skipped) this.#closing.pop();
        this.#settle();
        this.#closeTo(unmatched[1]);
        // saxes keeps the tag as text, which starts the next text it hands over.
        this.#echoed += `</${unmatched[1]}>`;
        return;
      }
      this.#settle();
      if (READ_PAST.test(said)) return;
      // Once saxes took a stray close tag for the root's end, the rest looks like more roots.
      if (this.#stack.length > 0 && said === "documents may contain only one root") return;
      // After any other fault what follows may be anything: only entries complete before it count.
      this.#faulted = true;
    });
    p.on("opentag", (tag) => {
      this.#settle();
      this.#open(tag.name, tag.attributes as Record<string, string>);
    });
    p.on("closetag", (tag) => this.#closing.push({ name: tag.name, skipped: false }));
    // Text is listened to only inside a field kept: saxes then never copies the rest.
    p.on("cdata", (t) => {
      this.#settle();
      this.#append(t);
    });
    p.on("comment", () => {
      this.#settle();
      this.#run = 0;
    });
    p.on("processinginstruction", () => {
      this.#settle();
      this.#run = 0;
    });
  }

  /** The close tags no error took back, closed. */
  #settle() {
    if (this.#closing.length === 0) return;
    const closing = this.#closing;
    this.#closing = [];
    for (const { name } of closing) this.#closeTo(name);
  }

  /** Closes the innermost open element named `raw` and those inside it; none if none is. */
  #closeTo(raw: string) {
    if (this.#stack.at(-1) === raw) return this.#close(raw);
    const at = this.#stack.lastIndexOf(raw);
    if (at === -1) return;
    while (this.#stack.length > at) this.#close(this.#stack.at(-1)!);
  }

  #fault(problem: string) {
    // What closed before the fault counts.
    this.#settle();
    this.#out.problem ??= problem;
    this.#faulted = true;
  }

  /** True once the entry limit is reached. */
  get full(): boolean {
    return this.#stopped || this.#faulted;
  }

  /** Feed slices of at most a few tens of kilobytes: the run limit is checked between them. */
  write(text: string): void {
    if (this.full) return;
    this.#run += text.length;
    this.#parser.write(this.#ampersands.push(text));
    if (this.#run > MAX_RUN_CHARS) {
      this.#fault(`a text, comment or tag longer than ${MAX_RUN_CHARS / 1024 / 1024} MB`);
    }
  }

  /** The pages read since the last call, once there are `atLeast` (a caller streaming them). */
  takePages(atLeast = 1): Listed[] {
    return this.#out.pages.length >= atLeast ? this.#out.pages.splice(0) : [];
  }

  end(): ReadDocument {
    if (!this.full) this.#parser.write(this.#ampersands.end()).close();
    this.#settle();
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
    this.#run = 0;
    if (this.#stack.push(raw) > MAX_NESTING) {
      return this.#fault(`elements nested deeper than ${MAX_NESTING} levels`);
    }
    if (this.#stack.length === 1) {
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
      this.#entryDepth = this.#stack.length;
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
      this.#parser.on("text", this.#onText);
    }
  }

  readonly #onText = (t: string) => {
    this.#settle();
    if (this.#echoed) {
      if (t.startsWith(this.#echoed)) t = t.slice(this.#echoed.length);
      this.#echoed = "";
    }
    this.#append(t);
  };

  #append(t: string) {
    this.#run = 0;
    if (this.#field !== null && this.#text.length < FIELD_MAX) this.#text += t;
  }

  #close(raw: string) {
    const name = local(raw);
    this.#run = 0;
    const e = this.#entry;
    if (e && this.#field === raw) {
      const value = this.#text.trim();
      this.#field = null;
      this.#parser.off("text");
      if (name === "loc" || name === "link") e.url ??= value || null;
      else if (name === "guid") e.url ??= /^https?:\/\//i.test(value) ? value : null;
      else if (name === "title") e.title ??= own(value.slice(0, 500)) || null;
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
    if (e && this.#stack.length === this.#entryDepth) {
      this.#entry = null;
      this.#keep(e);
    }
    this.#stack.pop();
  }

  #keep(e: { url: string | null; lastmod: number | null; title: string | null }) {
    if (!e.url || this.#faulted) return;
    const index = this.#out.kind === "sitemapindex";
    if ((index ? this.#out.sitemaps.length : this.#out.pageCount) >= MAX_LISTED) {
      this.#skipped++;
      this.#stopped = true;
      return;
    }
    let url: string;
    try {
      url = own(new URL(e.url, this.#base).href);
    } catch {
      return;
    }
    if (index) this.#out.sitemaps.push({ url, lastmod: e.lastmod, title: e.title });
    else {
      this.#out.pages.push({ url, lastmod: e.lastmod, title: e.title });
      this.#out.pageCount++;
    }
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

/**
 * A plain text sitemap (sitemaps.org "Text file"), read as it arrives: one URL per line, at most
 * MAX_LISTED; `write()` answers true once that many are kept.
 */
export class TextSitemapReader {
  readonly #base: string;
  readonly #out: ReadDocument = {
    kind: "text",
    root: null,
    pages: [],
    pageCount: 0,
    sitemaps: [],
    problem: null,
  };
  #rest = "";

  constructor(base: string) {
    this.#base = base;
  }

  write(text: string): boolean {
    const lines = (this.#rest + text).split(/\r?\n/);
    this.#rest = lines.pop()!;
    // A line this long is no URL: a NUL in front keeps the rest of it from ever matching.
    if (this.#rest.length > FIELD_MAX) this.#rest = "\0";
    return lines.some((l) => this.#line(l));
  }

  /** The pages read since the last call, once there are `atLeast`. */
  takePages(atLeast = 1): Listed[] {
    return this.#out.pages.length >= atLeast ? this.#out.pages.splice(0) : [];
  }

  end(): ReadDocument {
    if (this.#out.problem === null) this.#line(this.#rest);
    if (this.#out.pageCount === 0) this.#out.problem ??= "no URLs in the text file";
    return this.#out;
  }

  /** True once the limit is met. */
  #line(line: string): boolean {
    const t = line.trim();
    if (!/^https?:\/\//i.test(t)) return false;
    if (this.#out.pageCount >= MAX_LISTED) {
      this.#out.problem = `lists more than ${MAX_LISTED.toLocaleString("en")} URLs (the ` +
        `sitemaps.org limit); the first ${MAX_LISTED.toLocaleString("en")} were read`;
      return true;
    }
    try {
      this.#out.pages.push({ url: own(new URL(t, this.#base).href), lastmod: null, title: null });
      this.#out.pageCount++;
    } catch { /* not a URL: skipped like any other line */ }
    return false;
  }
}

/** A plain text sitemap read whole. */
export function readTextSitemap(text: string, base: string): ReadDocument {
  const reader = new TextSitemapReader(base);
  reader.write(text);
  return reader.end();
}
