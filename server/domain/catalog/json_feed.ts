/**
 * JSON Feed (https://jsonfeed.org/version/1.1, versions 1 and 1.1): the feed format some sites
 * publish beside or instead of RSS and Atom, served as `application/feed+json` and linked with
 * `<link rel="alternate" type="application/feed+json">`. A JSON document cannot be read in
 * pieces the way XML is, so it is held to at most JSON_FEED_MAX_CHARS and parsed at its end: a
 * feed lists its recent items (often 10 to 100), far below that.
 */
import { type Listed, MAX_LISTED, type ReadDocument, tooLarge } from "./site_documents.ts";

/** The most text of a JSON feed held for parsing (a feed whose items carry their whole HTML). */
export const JSON_FEED_MAX_CHARS = 4 * 1024 * 1024;

/** Reads one JSON feed as it arrives: `write()` answers true once no more is wanted. */
export class JsonFeedReader {
  readonly #base: string;
  #text = "";
  #problem: string | null = null;
  #out: ReadDocument = {
    kind: "json",
    root: null,
    pages: [],
    pageCount: 0,
    sitemaps: [],
    problem: null,
  };

  constructor(base: string) {
    this.#base = base;
  }

  write(text: string): boolean {
    if (this.#problem) return true;
    if (this.#text.length + text.length > JSON_FEED_MAX_CHARS) {
      this.#problem = `${tooLarge(JSON_FEED_MAX_CHARS)} (a JSON feed is read whole)`;
      this.#text = "";
      return true;
    }
    this.#text += text;
    return false;
  }

  /** The pages read: none before `end()`, which reads them all. */
  takePages(atLeast = 1): Listed[] {
    return this.#out.pages.length >= atLeast ? this.#out.pages.splice(0) : [];
  }

  /** The feed read; its `pages` are the ones `takePages()` has not handed over yet. */
  end(): ReadDocument {
    this.#out = this.#read();
    return this.#out;
  }

  #read(): ReadDocument {
    const out: ReadDocument = { ...this.#out, pages: [], problem: this.#problem };
    if (this.#problem) return out;
    let feed: unknown;
    try {
      feed = JSON.parse(this.#text);
    } catch (e) {
      return { ...out, problem: `not valid JSON (${(e as Error).message})` };
    } finally {
      this.#text = "";
    }
    const version = (feed as { version?: unknown } | null)?.version;
    if (typeof version !== "string" || !version.startsWith("https://jsonfeed.org/version/")) {
      return {
        ...out,
        kind: "unknown",
        problem: "not a sitemap or feed (JSON without a JSON Feed version)",
      };
    }
    const items = (feed as { items?: unknown }).items;
    if (!Array.isArray(items)) return { ...out, problem: "a JSON feed without an items list" };
    for (const item of items.slice(0, MAX_LISTED)) {
      const listed = this.#listed(item);
      if (listed) out.pages.push(listed);
    }
    out.pageCount = out.pages.length;
    if (items.length > MAX_LISTED) {
      out.problem = `lists more than ${MAX_LISTED.toLocaleString("en")} items; the first ` +
        `${MAX_LISTED.toLocaleString("en")} were read`;
    }
    return out;
  }

  /** An item's page: its `url` (the item's own page), else `external_url` (what it is about). */
  #listed(item: unknown): Listed | null {
    if (typeof item !== "object" || item === null) return null;
    const i = item as Record<string, unknown>;
    const raw = typeof i.url === "string"
      ? i.url
      : typeof i.external_url === "string"
      ? i.external_url
      : null;
    if (!raw) return null;
    let url: URL;
    try {
      url = new URL(raw.trim(), this.#base);
    } catch {
      return null;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    const date = [i.date_modified, i.date_published].find((d) => typeof d === "string");
    const at = typeof date === "string" ? Date.parse(date) : NaN;
    const title = typeof i.title === "string" ? i.title.trim().slice(0, 500) || null : null;
    return { url: url.href, lastmod: Number.isFinite(at) ? at : null, title };
  }
}
