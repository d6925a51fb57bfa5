/** Articles as the management API lists and changes them: prices in US cents at this edge. */
import {
  type ArticleListing,
  type ArticlePageQuery,
  getArticleListing,
  listArticlePage,
} from "../../store/article_pages.ts";
import { setArticlePolicy } from "../../store/articles.ts";
import type { Policy } from "../../store/vocabulary.ts";
import type { Client } from "../../store/db.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { centsToMicros, microsToCents } from "../money.ts";

/** An article listing with its price override in cents. */
export function presentArticle(a: ArticleListing) {
  const { priceMicros, ...rest } = a;
  return { ...rest, priceUsdCents: priceMicros === null ? null : microsToCents(priceMicros) };
}

/** One page of the catalog with the total and the next page's offset (null on the last page). */
export async function listManagedArticles(
  db: Client,
  publisherId: string,
  query: ArticlePageQuery,
) {
  const { articles, total } = await listArticlePage(db, publisherId, query);
  const next = query.offset + articles.length;
  return {
    articles: articles.map(presentArticle),
    total,
    limit: query.limit,
    offset: query.offset,
    nextOffset: articles.length > 0 && next < total ? next : null,
  };
}

/**
 * Sets an article's policy and/or price override, then tells search, whose eligibility depends
 * on the policy (BLOCKED articles are never returned).
 */
export async function patchManagedArticle(
  deps: Pick<AppDeps, "store" | "clock" | "search">,
  publisherId: string,
  change: { id: string; policy?: Policy; priceUsdCents?: number | null },
) {
  const priceMicros = change.priceUsdCents === undefined
    ? undefined
    : change.priceUsdCents === null
    ? null
    : centsToMicros(change.priceUsdCents);
  const found = await setArticlePolicy(deps.store.db, publisherId, change.id, {
    policy: change.policy,
    priceMicros,
    now: deps.clock.now(),
  });
  if (!found) throw notFound("Article");
  await deps.search.articleChanged(publisherId, change.id);
  const article = await getArticleListing(deps.store.db, publisherId, change.id);
  if (!article) throw notFound("Article");
  return presentArticle(article);
}
