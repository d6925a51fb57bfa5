/**
 * Argument completion (MCP 2025-06-18 "Completion"): topics and article ids the catalog knows,
 * for the prompts' arguments and the article resource template. A value is offered only when a
 * listing would show its article to this caller (server/domain/reads/listing.ts): completion never names
 * a BLOCKED, territory-denied or license-denied article, nor a tag only such articles carry.
 */
import { articlesByPrefix, tagsByPrefix } from "../../../store/article_prefix.ts";
import { listableIds } from "../../domain/reads/listing.ts";
import { readDeps, type ToolContext } from "./tool_kit.ts";

/** What a completable argument holds. */
export type Completer = "topic" | "article";

/** The spec's cap on values per answer. */
export const MAX_VALUES = 100;

/** Candidates looked at per request: bounded work whatever the catalog's size. */
const ARTICLE_CANDIDATES = 300;
const TAG_CANDIDATES = 200;
const ARTICLES_PER_TAG = 20;

/** The completion of `value` for an argument holding `kind`. */
export async function complete(
  ctx: ToolContext,
  kind: Completer,
  value: string,
): Promise<{ values: string[]; total: number; hasMore: boolean }> {
  const who = { publisher: ctx.publisher, caller: ctx.caller };
  const db = ctx.deps.store.db;
  const prefix = value.trim();
  let found: string[];
  let capped: boolean;
  if (kind === "topic") {
    const tags = await tagsByPrefix(db, ctx.publisher.id, {
      prefix: prefix.toLowerCase(),
      tags: TAG_CANDIDATES,
      perTag: ARTICLES_PER_TAG,
    });
    const shown = await listableIds(readDeps(ctx), who, tags.flatMap((t) => t.articles));
    found = tags.filter((t) => t.articles.some((a) => shown.has(a.id))).map((t) => t.tag);
    capped = tags.length === TAG_CANDIDATES;
  } else {
    const articles = await articlesByPrefix(db, ctx.publisher.id, {
      prefix,
      limit: ARTICLE_CANDIDATES,
    });
    const shown = await listableIds(readDeps(ctx), who, articles);
    found = articles.filter((a) => shown.has(a.id)).map((a) => a.id);
    capped = articles.length === ARTICLE_CANDIDATES;
  }
  return {
    values: found.slice(0, MAX_VALUES),
    total: found.length,
    hasMore: found.length > MAX_VALUES || capped,
  };
}
