/** How articles look on the wire (REST, A2A, MCP): the fields docs/SPEC.md "Article" lists. */
import type { Article } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { Config } from "../../platform/config.ts";
import { licenseBlock } from "./license_block.ts";
import type { PassageHit } from "./search.ts";

/** Search result fields (docs/SPEC.md "Publisher REST API"). */
export function articleSummary(a: Article) {
  return {
    id: a.id,
    url: a.canonicalUrl ?? a.url,
    title: a.title,
    author: a.author,
    publishedAt: a.publishedAt,
    summary: a.summary,
    tags: a.tags,
  };
}

/** The three fields that name an article when nothing of it is served. */
export function articleRef(a: Article) {
  return { id: a.id, url: a.canonicalUrl ?? a.url, title: a.title };
}

/** The full article, body included. */
export function articleFull(a: Article, policy: string) {
  return {
    ...articleSummary(a),
    body: a.body,
    policy,
    kind: a.kind,
    ...(a.bookId ? { bookId: a.bookId, chapter: a.chapterNo } : {}),
  };
}

/**
 * `articleFull(a, policy)` as JSON text, kept per article object the catalog cache handed out
 * (frozen, store/config_cache.ts): serialising the body was a twentieth of a REST read, and the
 * same article is served again and again (docs/PERFORMANCE.md, issue 39).
 */
export function articleFullJson(a: Article, policy: string): string {
  let byPolicy = fullJson.get(a);
  const hit = byPolicy?.get(policy);
  if (hit !== undefined) return hit;
  const json = JSON.stringify(articleFull(a, policy));
  if (Object.isFrozen(a)) {
    if (!byPolicy) fullJson.set(a, byPolicy = new Map());
    byPolicy.set(policy, json);
  }
  return json;
}
const fullJson = new WeakMap<Article, Map<string, string>>();

/** A retrieved passage with its article and license block (retrieve_passages on every surface). */
export function passageResult(
  config: Pick<Config, "baseUrl">,
  publisher: Publisher,
  p: PassageHit,
) {
  return {
    chunkId: p.chunkId,
    section: p.section,
    text: p.text,
    score: p.score,
    article: articleSummary(p.article),
    license: licenseBlock(config, publisher, p.decision),
  };
}
