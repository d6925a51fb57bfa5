/**
 * Articles as the management API lists and changes them: prices in US cents at this edge, each
 * with its effective policy and price (what content rules make of it now, server/surfaces/manage/effective.ts).
 */
import {
  type ArticleListing,
  getArticleListing,
  getArticleListings,
  listArticlePage,
  listArticleRuleFacts,
} from "../../../store/article_pages.ts";
import { setArticlePolicy, setArticlePublished } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { listRules } from "../../../store/rules.ts";
import type { Policy } from "../../../store/vocabulary.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../platform/errors.ts";
import { centsToMicros, microsToCents } from "../../platform/money.ts";
import { type EffectiveContext, effectiveOf } from "./effective.ts";

type Deps = Pick<AppDeps, "store" | "clock">;

/** Filters and page of GET /api/publisher/articles. */
export interface ManagedArticleQuery {
  limit: number;
  offset: number;
  /** The effective policy, after content rules. */
  policy?: Policy;
  /** The policy stored on the article. */
  storedPolicy?: Policy;
  kind?: "article" | "chapter";
  published?: boolean;
  /** The reader's country the rules are evaluated for; none matches no territory rule. */
  country?: string;
  /** Words that must all appear in the title or URL. */
  q?: string;
}

/** An article listing with its price override in cents and its effective policy and price. */
export function presentArticle(a: ArticleListing, ctx: EffectiveContext) {
  const { priceMicros, publicUrl, ...rest } = a;
  return {
    ...rest,
    // A chapter's stored key is never shown (docs/decisions/ingestion.md, Books).
    url: publicUrl,
    priceUsdCents: priceMicros === null ? null : microsToCents(priceMicros),
    effective: effectiveOf(ctx, a),
  };
}

/** The rules and the moment the publisher's articles are evaluated under, now. */
export async function effectiveContext(
  deps: Deps,
  publisher: Pick<Publisher, "id" | "pricesMicros">,
  options: { country?: string; at?: Date } = {},
): Promise<EffectiveContext> {
  return {
    publisher,
    rules: await listRules(deps.store.db, publisher.id),
    territory: options.country ?? null,
    now: options.at ?? deps.clock.now(),
  };
}

/**
 * One page of the catalog with the total and the next page's offset (null on the last page).
 * Stored filters run in SQL; the effective policy is decided by the rules, so filtering on it
 * evaluates every article passing the stored filters (their rule facts only, no bodies).
 */
export async function listManagedArticles(
  deps: Deps,
  publisher: Publisher,
  query: ManagedArticleQuery,
) {
  const db = deps.store.db;
  const ctx = await effectiveContext(deps, publisher, { country: query.country });
  const filters = {
    policy: query.storedPolicy,
    kind: query.kind,
    published: query.published,
    q: query.q,
  };
  let page: ArticleListing[];
  let total: number;
  if (query.policy === undefined) {
    ({ articles: page, total } = await listArticlePage(db, publisher.id, { ...query, ...filters }));
  } else {
    const facts = await listArticleRuleFacts(db, publisher.id, filters);
    const ids = facts.filter((a) => effectiveOf(ctx, a).policy === query.policy).map((a) => a.id);
    total = ids.length;
    page = await getArticleListings(
      db,
      publisher.id,
      ids.slice(query.offset, query.offset + query.limit),
    );
  }
  const next = query.offset + page.length;
  return {
    articles: page.map((a) => presentArticle(a, ctx)),
    total,
    limit: query.limit,
    offset: query.offset,
    nextOffset: page.length > 0 && next < total ? next : null,
  };
}

/**
 * Sets an article's policy and/or price override, then tells search, whose eligibility depends
 * on the policy (BLOCKED articles are never returned).
 */
export async function patchManagedArticle(
  deps: Pick<AppDeps, "store" | "clock" | "search">,
  publisher: Publisher,
  change: { id: string; policy?: Policy; priceUsdCents?: number | null },
) {
  const priceMicros = change.priceUsdCents === undefined
    ? undefined
    : change.priceUsdCents === null
    ? null
    : centsToMicros(change.priceUsdCents);
  const found = await setArticlePolicy(deps.store.db, publisher.id, change.id, {
    policy: change.policy,
    priceMicros,
    now: deps.clock.now(),
  });
  if (!found) throw notFound("Article");
  await deps.search.articleChanged(publisher.id, change.id);
  return await managedArticle(deps, publisher, change.id);
}

/**
 * Unpublishes (agents no longer find, list or read it; charges, calls and intents stay) or
 * republishes an article. Search checks publication on every query (store/eligible.ts); it is
 * told of the change like of any other.
 */
export async function setManagedArticlePublished(
  deps: Pick<AppDeps, "store" | "clock" | "search">,
  publisher: Publisher,
  change: { id: string; published: boolean },
) {
  const found = await setArticlePublished(deps.store.db, publisher.id, change.id, {
    published: change.published,
    now: deps.clock.now(),
  });
  if (!found) throw notFound("Article");
  await deps.search.articleChanged(publisher.id, change.id);
  return await managedArticle(deps, publisher, change.id);
}

/** One of the publisher's articles as the management API shows it; 404 when it is not theirs. */
export async function managedArticle(deps: Deps, publisher: Publisher, id: string) {
  const article = await getArticleListing(deps.store.db, publisher.id, id);
  if (!article) throw notFound("Article");
  return presentArticle(article, await effectiveContext(deps, publisher));
}
