/**
 * Browsing a catalog (MCP list_recent, list_by_topic, resources/list). Listings are metadata
 * for agent use, so they obey the same visibility as search (visibility.ts), decided per article
 * by the one access decision.
 */
import { type Article, listRecent } from "../../../store/articles.ts";
import { bookCeilings } from "../../../store/book_ceilings.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { Clock } from "../../platform/clock.ts";
import { decide, type Decision, mayHoldAny } from "../licensing/mod.ts";
import { inputFor, type ReadContext, readContext } from "./read_article.ts";
import type { Caller } from "./requester.ts";
import { listable } from "./visibility.ts";

/** One listed article with the rag decision that let it through. */
export interface ListedArticle {
  article: Article;
  decision: Decision;
}

/** The most recent visible articles, optionally since an instant or with a tag. */
export async function listVisible(
  deps: { db: Client; clock: Clock },
  req: {
    publisher: Publisher;
    caller: Caller;
    limit: number;
    since?: string;
    tag?: string;
    offset?: number;
  },
): Promise<{ items: ListedArticle[]; nextOffset: number | null }> {
  const now = deps.clock.now();
  const page = req.limit * 2 + 10;
  const items: ListedArticle[] = [];
  let offset = req.offset ?? 0;
  // Facts about the caller are the same for every article: gather them once.
  const ctx: ReadContext = await readContext(deps.db, req, now);
  // The rights table (rights.ts): a licensee holding rag lists a catalog whose default denies it.
  if (!mayHoldAny("rag", ctx.publisher.rights, ctx.requester)) {
    return { items: [], nextOffset: null };
  }
  while (items.length < req.limit) {
    const batch = await listRecent(deps.db, req.publisher.id, {
      limit: page,
      offset,
      since: req.since,
      tag: req.tag,
    });
    const ceilings = await bookCeilings(deps.db, req.publisher.id, batch);
    for (const article of batch) {
      offset++;
      const ceiling = article.bookId ? ceilings.get(article.bookId) ?? null : null;
      const decision = decide(inputFor(ctx, article, { use: "rag", ceiling, now }));
      if (!listable(decision)) continue;
      items.push({ article, decision });
      if (items.length >= req.limit) return { items, nextOffset: offset };
    }
    if (batch.length < page) return { items, nextOffset: null };
  }
  return { items, nextOffset: offset };
}

/**
 * The ids among `articles` a listing would show this caller (the same rag decision and rule as
 * listVisible): for completions, which must not name what a listing hides.
 */
export async function listableIds(
  deps: { db: Client; clock: Clock },
  req: { publisher: Publisher; caller: Caller },
  articles: Article[],
): Promise<Set<string>> {
  if (articles.length === 0) return new Set();
  const now = deps.clock.now();
  const ctx = await readContext(deps.db, req, now);
  if (!mayHoldAny("rag", ctx.publisher.rights, ctx.requester)) return new Set();
  const ceilings = await bookCeilings(deps.db, req.publisher.id, articles);
  const out = new Set<string>();
  for (const article of articles) {
    const ceiling = article.bookId ? ceilings.get(article.bookId) ?? null : null;
    if (listable(decide(inputFor(ctx, article, { use: "rag", ceiling, now })))) out.add(article.id);
  }
  return out;
}
