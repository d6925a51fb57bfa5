/**
 * What a publisher's content rules make of an article, as the management API shows it: the
 * effective policy and display price and what decided them, evaluated by the access decision's own
 * rule matching and terms (server/domain/licensing: `matchRules`, `termsOf`) for a reader from
 * `territory` (null: a reader whose country is unknown, whom no territory rule matches).
 */
import type { Publisher } from "../../../store/publishers.ts";
import {
  type ContentRule,
  matchRules,
  type Policy,
  type Requester,
  type RuleMatch,
  termsOf,
} from "../../domain/licensing/mod.ts";
import { microsToCents } from "../../platform/money.ts";
import { articleFacts } from "../../domain/reads/read_article.ts";

/** Who or what decided an article's effective policy and price. */
export type DecidedBy =
  | { kind: "rule"; ruleId: string; ruleName: string | null }
  | { kind: "article" }
  | { kind: "default" };

/** The policy and display price a read gets, and what decided them. */
export interface Effective {
  policy: Policy;
  /** The display price per read in US cents; 0 unless the policy is PAYWALL. */
  priceUsdCents: number;
  decidedBy: DecidedBy;
}

/** The facts an evaluation is made under. */
export interface EffectiveContext {
  publisher: Pick<Publisher, "id" | "pricesMicros">;
  rules: ContentRule[];
  territory: string | null;
  now: Date;
}

/** The article fields the evaluation reads. */
export interface EffectiveArticle {
  id: string;
  url: string;
  publishedAt: string | null;
  policy: Policy;
  priceMicros: number | null;
}

/** New articles are OBSERVE (store/articles.ts); another stored policy is the publisher's choice. */
const DEFAULT_POLICY: Policy = "OBSERVE";

/** The effective policy and price of one article, with the rule match behind them. */
export function evaluate(
  ctx: EffectiveContext,
  article: EffectiveArticle,
): { effective: Effective; match: RuleMatch } {
  const requester: Requester = {
    identity: `publisher:${ctx.publisher.id}`,
    buyerId: null,
    licensedUses: [],
    approvedUses: [],
    territory: ctx.territory,
    surface: "dashboard",
  };
  const facts = articleFacts(article, null);
  const match = matchRules(ctx.rules, { article: facts, requester, now: ctx.now });
  const byRule = (id: string): DecidedBy => ({
    kind: "rule",
    ruleId: id,
    ruleName: ctx.rules.find((r) => r.id === id)?.name ?? null,
  });
  // A territory denial stacks over everything: for this reader the article is blocked.
  if (match.denied) {
    return {
      match,
      effective: { policy: "BLOCKED", priceUsdCents: 0, decidedBy: byRule(match.denyRuleIds[0]) },
    };
  }
  const terms = termsOf(ctx.publisher, facts, match);
  const decidedBy: DecidedBy =
    terms.ruleId !== null && (terms.policyFrom === "rule" || terms.priceFrom === "rule")
      ? byRule(terms.ruleId)
      : terms.priceFrom === "article" || article.policy !== DEFAULT_POLICY
      ? { kind: "article" }
      : { kind: "default" };
  return {
    match,
    effective: {
      policy: terms.policy,
      priceUsdCents: microsToCents(terms.prices.display),
      decidedBy,
    },
  };
}

/** The effective policy and price of one article. */
export function effectiveOf(ctx: EffectiveContext, article: EffectiveArticle): Effective {
  return evaluate(ctx, article).effective;
}
