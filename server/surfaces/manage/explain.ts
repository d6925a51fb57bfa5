/**
 * GET /api/publisher/rules/explain: which content rule applies to a URL for a reader from a country
 * at a moment, and the policy and price that follow, by the access decision's own evaluation.
 */
import { findArticleListingByUrl } from "../../../store/article_pages.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import { articlePathname } from "../../domain/licensing/mod.ts";
import { effectiveContext, presentArticle } from "./articles.ts";
import { evaluate } from "./effective.ts";
import { presentRule } from "./rules.ts";

/** What explain is asked. */
export interface ExplainQuery {
  /** An article URL (its URL or canonical URL) or a path such as /premium/x. */
  url: string;
  country?: string;
  at?: string;
}

/**
 * The explanation. A URL that is none of the publisher's articles is evaluated as a new article
 * published at `at` with the default policy (so embargo rules match it) and no price override.
 */
export async function explainRules(
  deps: Pick<AppDeps, "store" | "clock">,
  publisher: Publisher,
  query: ExplainQuery,
) {
  const at = query.at ? new Date(query.at) : deps.clock.now();
  const ctx = await effectiveContext(deps, publisher, { country: query.country, at });
  const article = await findArticleListingByUrl(deps.store.db, publisher.id, query.url);
  const subject = article ?? {
    id: "",
    url: query.url,
    publishedAt: at.toISOString(),
    policy: "OBSERVE" as const,
    priceMicros: null,
  };
  const { effective, match } = evaluate(ctx, subject);
  const rule = (id: string) => presentRule(ctx.rules.find((r) => r.id === id)!);
  return {
    url: query.url,
    path: articlePathname(subject.url),
    country: query.country ?? null,
    at: at.toISOString(),
    rule: match.ruleId ? rule(match.ruleId) : null,
    denials: match.denyRuleIds.map(rule),
    effective,
    article: article ? presentArticle(article, ctx) : null,
  };
}
