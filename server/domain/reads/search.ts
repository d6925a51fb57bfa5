/**
 * Searching a publisher's catalog on any surface. Search results are metadata for `rag`
 * (docs/SPEC.md "Publisher REST API": articles whose license denies rag are excluded entirely); content
 * rules still apply per article, so territory-denied and rule-BLOCKED articles are left out too.
 * Passages are content: each article's passages are a rag read, decided, charged or metered once.
 */
import { readView } from "../../../store/config_cache.ts";
import { inSpan, meters } from "../../platform/telemetry.ts";
import { type Article, getArticles } from "../../../store/articles.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { SearchService } from "../../../search/mod.ts";
import type { Clock } from "../../platform/clock.ts";
import { decide, type Decision, mayHoldAny, reasons, withholdsAll } from "../licensing/mod.ts";
import {
  inputFor,
  peekArticle,
  readArticle,
  readContext,
  type ReadDeps,
  type ReadResult,
} from "./read_article.ts";
import { bookCeilings } from "../../../store/book_ceilings.ts";
import type { Caller } from "./requester.ts";
import { listable } from "./visibility.ts";

/** Dependencies of search. */
export interface SearchDeps {
  db: Client;
  clock: Clock;
  search: SearchService;
}

/** One search result: the article and, on semantic hits, the passage that matched. */
export interface ArticleHit {
  article: Article;
  decision: Decision;
  match?: { chunkId: string; section: string; snippet: string };
}

/**
 * What a search found for this caller: the hits it may see, how many the caller's territory
 * withheld among the candidates the query reached, and `territory` (the sentence to answer with)
 * when a territory rule withholds everything the query could reach: then nothing is shown and the
 * surfaces answer territory_blocked (docs/SPEC.md "Errors": 451; docs/decisions/licensing.md).
 */
export interface SearchFound {
  mode: "hybrid" | "fts" | "semantic" | "none";
  hits: ArticleHit[];
  withheld: number;
  territory: string | null;
}

/** Ranked articles for `query`, with the legs that contributed (`mode`). */
export function searchArticles(
  deps: SearchDeps,
  req: { publisher: Publisher; query: string; limit: number; caller: Caller },
): Promise<SearchFound> {
  const surface = req.caller.surface;
  return inSpan("folio.search", { "folio.surface": surface }, async (span) => {
    const started = performance.now();
    const found = await search(deps, req);
    span.setAttributes({ "folio.search_mode": found.mode, "folio.hits": found.hits.length });
    meters.searchDuration.record(performance.now() - started, { surface, mode: found.mode });
    return found;
  });
}

async function search(
  deps: SearchDeps,
  req: { publisher: Publisher; query: string; limit: number; caller: Caller },
): Promise<SearchFound> {
  const now = deps.clock.now();
  const ctx = await readContext(deps.db, req, now);
  const nothing = { mode: "none" as const, hits: [], withheld: 0 };
  // A territory rule withholding every article answers so whatever the query matches.
  if (withholdsAll(ctx.rules, ctx.requester.territory)) {
    return { ...nothing, territory: reasons.territorySearch(req.publisher.name) };
  }
  // The rights table (rights.ts): a licensee holding rag searches a catalog whose default denies it.
  if (!mayHoldAny("rag", ctx.publisher.rights, ctx.requester)) {
    return { ...nothing, territory: null };
  }
  // Only a territory denial or a BLOCKED rule can hide a hit the index returned: over-fetch
  // then, so filtering still fills the page, and ask for exactly the page otherwise.
  const mayHide = ctx.rules.some((r) => r.action.deny || r.action.policy === "BLOCKED");
  const found = await deps.search.search(req.publisher.id, req.query, {
    limit: mayHide ? req.limit * 2 + 10 : req.limit,
    view: readView(deps.db, req.publisher),
  });
  const articles = await getArticles(
    deps.db,
    req.publisher.id,
    found.hits.map((h) => h.articleId),
    { withBody: false },
  );
  const byId = new Map(articles.map((a) => [a.id, a]));
  const ceilings = await bookCeilings(deps.db, req.publisher.id, articles);
  const hits: ArticleHit[] = [];
  let withheld = 0;
  // Every candidate is decided, past a full page too, so the withheld count covers all of them.
  for (const h of found.hits) {
    const article = byId.get(h.articleId);
    if (!article) continue;
    const ceiling = article.bookId ? ceilings.get(article.bookId) ?? null : null;
    const decision = decide(inputFor(ctx, article, { use: "rag", ceiling, now }));
    if (decision.outcome === "territory_blocked") withheld++;
    if (!listable(decision) || hits.length >= req.limit) continue;
    hits.push({ article, decision, match: h.match });
  }
  if (hits.length === 0 && withheld > 0) {
    return { ...nothing, withheld, territory: reasons.territorySearch(req.publisher.name) };
  }
  return { mode: hits.length ? found.mode : "none", hits, withheld, territory: null };
}

/** One retrieved passage with its article and the decision that released it. */
export interface PassageHit {
  chunkId: string;
  section: string;
  text: string;
  score: number;
  article: Article;
  decision: Decision;
  /** The article's rag read's charge (and receipt), if it was charged. */
  charge: ReadResult["charge"];
}

/** The passages a caller may use, and what its territory withheld (as `SearchFound`). */
export interface PassagesFound {
  passages: PassageHit[];
  /** Articles withheld in the caller's region among those the page considered. */
  withheld: number;
  /** The sentence to answer territory_blocked with, when everything reachable is withheld. */
  territory: string | null;
}

/**
 * The best passages for `query` whose articles this caller may use for rag. With `record: false`
 * the same decisions are taken but nothing is recorded (no charge, meter read or intent): what
 * the dashboard's playground shows (`decision.charge` then says what a read would have cost).
 * Territory withholding is answered as search answers it (`SearchFound`); the count covers the
 * articles decided until the page was full, since each further one would be a (charged) read.
 */
export async function retrievePassages(
  deps: SearchDeps & ReadDeps,
  req: {
    publisher: Publisher;
    query: string;
    limit: number;
    caller: Caller;
    lastUserPrompt?: string | null;
    record?: boolean;
    /** The request's key; each article's rag read is keyed `<key>#<articleId>`. */
    idempotencyKey?: string | null;
  },
): Promise<PassagesFound> {
  const ctx = await readContext(deps.db, req, deps.clock.now(), { meter: false });
  if (withholdsAll(ctx.rules, ctx.requester.territory)) {
    return { passages: [], withheld: 0, territory: reasons.territorySearch(req.publisher.name) };
  }
  if (!mayHoldAny("rag", ctx.publisher.rights, ctx.requester)) {
    return { passages: [], withheld: 0, territory: null };
  }
  const passages = await deps.search.passages(req.publisher.id, req.query, {
    limit: req.limit * 2 + 10,
    view: readView(deps.db, req.publisher),
  });
  const released = new Map<string, Pick<ReadResult, "article" | "decision" | "charge">>();
  const out: PassageHit[] = [];
  let withheld = 0;
  for (const p of passages) {
    let read = released.get(p.articleId);
    if (!read) {
      // One rag read per article per request: charged or metered once however many passages.
      const ask = { publisher: req.publisher, idOrUrl: p.articleId, caller: req.caller };
      read = req.record === false
        ? { ...await peekArticle(deps, { ...ask, use: "rag" }), charge: null }
        : await readArticle(deps, {
          ...ask,
          use: "rag",
          lastUserPrompt: req.lastUserPrompt,
          idempotencyKey: req.idempotencyKey ? `${req.idempotencyKey}#${p.articleId}` : null,
        });
      released.set(p.articleId, read);
      if (read.decision?.outcome === "territory_blocked") withheld++;
    }
    if (!read.article || read.decision?.outcome !== "full") continue;
    out.push({
      chunkId: p.chunkId,
      section: p.section,
      text: p.text,
      score: p.score,
      article: read.article,
      decision: read.decision,
      charge: read.charge,
    });
    if (out.length >= req.limit) break;
  }
  if (out.length === 0 && withheld > 0) {
    return { passages: [], withheld, territory: reasons.territorySearch(req.publisher.name) };
  }
  return { passages: out, withheld, territory: null };
}
