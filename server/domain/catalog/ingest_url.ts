/** Ingesting one listed URL: robots.txt, the guarded fetch, extraction, upsert, re-index. */
import { setArticlePublished, unpublishArticle, upsertArticle } from "../../../store/articles.ts";
import type { UrlResult } from "../../../store/ingest_queue.ts";
import type { SourceUrl } from "../../../store/sources.ts";
import type { AppDeps } from "../../deps.ts";
import { ExtractionFailed } from "./extract_thread.ts";
import { FetchRefused, type FetchRefusedCode } from "./fetcher.ts";
import { robotsVerdict } from "./robots.ts";

/** Pages above this are refused (docs/DESIGN.md section 10: size limits while streaming). */
export const PAGE_MAX_BYTES = 10 * 1024 * 1024;
/** HTML left after scripts and styles beyond this is not handed to the extractor (event loop). */
const EXTRACT_MAX_CHARS = 3 * 1024 * 1024;
const PAGE_TYPES = ["text/html", "application/xhtml+xml"];
/** The reason of a page that answered 404 or 410 (a re-queued one keeps it: see store/sites.ts). */
const GONE = "the page is gone; its article was unpublished";

/**
 * What happened to one URL; `category` groups failures in the job's reason counts, and `refused`
 * is the fetcher's refusal behind a failure (the job's host memory reads it).
 */
export type UrlOutcome =
  | Extract<UrlResult, { state: "ingested" | "unchanged" | "removed" }>
  | (Extract<UrlResult, { state: "failed" | "blocked" }> & { refused?: FetchRefused });

const CATEGORY: Record<FetchRefusedCode, string> = {
  bad_url: "refused URL",
  bad_scheme: "refused URL",
  bad_port: "refused port",
  userinfo: "refused URL",
  blocked_address: "private or reserved address",
  dns_failure: "DNS failure",
  too_many_redirects: "too many redirects",
  too_large: "too large",
  timeout: "timeout",
  unsupported_type: "not HTML",
  http_status: "HTTP error",
  network: "network error",
};

/** The failure category of a fetcher refusal (e.g. "HTTP 404", "DNS failure"). */
export function categoryOf(e: FetchRefused): string {
  return e.code === "http_status" ? `HTTP ${e.status}` : CATEGORY[e.code];
}

/**
 * Fetches, extracts and stores one URL (robots.txt first); the caller records the outcome on the
 * URL's row with the job's counts (store/ingest_queue.ts recordUrl).
 */
export async function ingestUrl(
  deps: AppDeps,
  publisherId: string,
  row: SourceUrl,
  opts: { conditional: boolean; timeoutMs?: number; signal?: AbortSignal },
): Promise<UrlOutcome> {
  try {
    const verdict = await robotsVerdict(deps, publisherId, row.url);
    if ("refused" in verdict) throw verdict.refused;
    if (!verdict.allowed) {
      return { state: "blocked", category: "robots.txt", reason: verdict.reason };
    }
    const headers: Record<string, string> = {};
    if (opts.conditional && row.articleId) {
      if (row.etag) headers["if-none-match"] = row.etag;
      if (row.lastModified) headers["if-modified-since"] = row.lastModified;
    }
    const res = await deps.fetcher.fetch(row.url, {
      accept: PAGE_TYPES,
      maxBytes: PAGE_MAX_BYTES,
      timeoutMs: opts.timeoutMs,
      headers,
      signal: opts.signal,
    });
    const html = res.text().replace(
      /<(script|style)\b[\s\S]*?<\/\1\s*>/gi,
      (m) => m.startsWith("<script") && /application\/ld\+json/i.test(m.slice(0, 200)) ? m : "",
    );
    if (html.length > EXTRACT_MAX_CHARS) {
      return {
        state: "failed",
        category: "too large",
        reason: `The page has more than ${EXTRACT_MAX_CHARS} characters of HTML to extract`,
      };
    }
    let x;
    try {
      x = await deps.extractor.extract(html, res.url);
    } catch (e) {
      if (!(e instanceof ExtractionFailed)) throw e;
      return { state: "failed", category: "extraction failed", reason: e.message };
    }
    if (!x.body.trim()) {
      return { state: "failed", category: "no article content", reason: "No article text found" };
    }
    const { id, changed } = await upsertArticle(deps.store.db, publisherId, {
      url: row.url,
      canonicalUrl: x.canonicalUrl,
      title: x.title || row.title || row.url,
      author: x.author,
      publishedAt: x.publishedAt,
      summary: x.summary,
      tags: x.tags,
      body: x.body,
    }, { now: deps.clock.now() });
    const back = await republishIfBack(deps, publisherId, row, id);
    if (changed || back) await deps.search.articleChanged(publisherId, id);
    return {
      state: changed || !row.articleId ? "ingested" : "unchanged",
      articleId: id,
      etag: res.headers.get("etag"),
      lastModified: res.headers.get("last-modified"),
    };
  } catch (e) {
    if (!(e instanceof FetchRefused)) throw e;
    if (e.code === "http_status" && e.status === 304 && row.articleId) {
      if (await republishIfBack(deps, publisherId, row, row.articleId)) {
        await deps.search.articleChanged(publisherId, row.articleId);
      }
      return { state: "unchanged", articleId: row.articleId };
    }
    // Gone (RFC 9110 sections 15.5.5 and 15.5.11): the page's article is unpublished, not
    // deleted, so its charges and calls keep their article and a page that returns republishes.
    if (e.code === "http_status" && (e.status === 404 || e.status === 410) && row.articleId) {
      const unpublished = await unpublishArticle(
        deps.store.db,
        publisherId,
        row.articleId,
        deps.clock.now(),
      );
      if (unpublished) await deps.search.articleChanged(publisherId, row.articleId);
      return {
        state: "removed",
        articleId: row.articleId,
        reason: `HTTP ${e.status}: ${GONE}`,
        already: !unpublished,
      };
    }
    return { state: "failed", category: categoryOf(e), reason: e.message, refused: e };
  }
}

/** A page that was gone and answers again: its article is published again (true if it was). */
async function republishIfBack(
  deps: AppDeps,
  publisherId: string,
  row: SourceUrl,
  articleId: string,
): Promise<boolean> {
  if (!row.reason?.endsWith(GONE)) return false;
  return await setArticlePublished(deps.store.db, publisherId, articleId, {
    published: true,
    now: deps.clock.now(),
  });
}
