/**
 * The one access decision (docs/DESIGN.md §5): every read or search on every surface asks `decide()`,
 * and surfaces only translate its outcome into their protocol. Pure: no I/O, `now` is an input.
 *
 * @module
 */

import {
  METERED_CAP_MICROS,
  microsToCents,
  sumMicros,
  withPlatformFee,
} from "../../platform/money.ts";
import { reasons, type SpendLimit } from "./reasons.ts";
import { heldRights } from "./rights.ts";
import { matchRules, type RuleMatch } from "./rules.ts";
import type {
  ArticleFacts,
  Charge,
  CrawlTerms,
  Decision,
  DecisionInput,
  Deliver,
  Outcome,
  Policy,
  PublisherTerms,
  Rights,
  UseCase,
  UsePrices,
} from "./types.ts";

const FREE: UsePrices = { summarization: 0, display: 0, rag: 0 };

/** Decide what one requester may receive of one article for one use, and what it costs. */
export function decide(input: DecisionInput): Decision {
  const { publisher, article, requester, use, usage, now } = input;
  const rules = matchRules(input.rules, { article, requester, now });
  const { policy, prices } = termsOf(publisher, article, rules, requester.crawl);
  const rights = rightsOf(input);
  const base = {
    policy,
    rights,
    pricingUsdCents: {
      summarization: microsToCents(prices.summarization),
      display: microsToCents(prices.display),
      rag: microsToCents(prices.rag),
    },
    charge: null,
    quote: null,
    countsAgainstMeter: false,
    capped: false,
    matchedRuleIds: rules.matchedRuleIds,
  };
  const result = (outcome: Outcome, reason: string, extra?: Partial<Decision>): Decision => ({
    ...base,
    outcome,
    deliver: deliverFor(outcome, use),
    reason,
    ...extra,
  });
  const facts = { publisher: publisher.name, cite: article.citeUrl };

  // a. Territory denials stack: any matching deny rule wins over every allow rule.
  if (rules.denied) {
    return result("territory_blocked", reasons.territory(facts));
  }
  // b. BLOCKED is the publisher's "no AI agents" switch; REST still answers 200 (docs/SPEC.md "Errors").
  if (policy === "BLOCKED") {
    return result("blocked", reasons.blocked(facts));
  }
  // A license token covers the one resource it was issued for (docs/decisions/rsl.md).
  if (requester.license && requester.license.articleId !== article.id) {
    return result(
      "license_denied",
      `The license token is for ${requester.license.resource}, not this article: acquire one for ${article.citeUrl} from the license server.`,
    );
  }
  // c/d. Rights come before licenses and money: nothing can buy past them.
  if (!rights[use]) {
    // docs/SPEC.md "Content license": unchecking Full display makes agents receive summaries only.
    if (use === "display" && rights.summarization) {
      return result("license_limited", reasons.summaryOnly(facts));
    }
    return result("license_denied", reasons.denied());
  }
  // e. fine_tuning is not on the rate card: a read for training delivers the body, so where the
  // publisher grants it by default it costs what display costs (docs/decisions/licensing.md).
  const price = use === "fine_tuning" ? prices.display : prices[use];
  // A suspended buyer reads nothing priced, licensed or metered, until it pays (issue 38).
  if (price > 0 && requester.suspension) {
    const overdue = {
      invoiceNumber: requester.suspension.invoiceNumber,
      url: requester.suspension.url,
    };
    return result("payment_overdue", reasons.paymentOverdue(overdue), { overdue });
  }
  // f. A license covering the use suppresses per-use charges (docs/SPEC.md "States": License active).
  if (requester.licensedUses.includes(use)) {
    return result("full", reasons.licensed(facts, use));
  }
  if (price === 0) return result("full", reasons.free(facts));

  // g. Buyers pay per use up to the monthly cap and their own budgets, then fall back to held
  // rights (docs/SPEC.md "Limits").
  if (requester.buyerId !== null) {
    const landing = requester.surface === "landing";
    const { total, fee } = landing ? withPlatformFee(price) : { total: price, fee: 0 };
    // The cap and budgets count what the buyer is billed, so the landing fee counts too.
    const withinCap = sumMicros([usage.spentThisMonthMicros, total]) <= METERED_CAP_MICROS;
    const withinBudget = usage.budgetLeftMicros === null || total <= usage.budgetLeftMicros;
    if (withinCap && withinBudget) {
      const charge: Charge = {
        micros: total,
        use,
        kind: landing ? "landing" : "metered",
        feeMicros: fee,
      };
      return result("full", reasons.charged(facts, total, use), { charge });
    }
    const limit: SpendLimit = {
      limit: withinCap ? "budget" : "cap",
      readMicros: total,
      spentMicros: usage.spentThisMonthMicros,
      budgetLeftMicros: usage.budgetLeftMicros,
    };
    if ((use === "display" || use === "summarization") && rights.summarization) {
      return result("license_limited", reasons.cappedSummary(facts, limit), { capped: true });
    }
    return result("license_denied", reasons.cappedDenied(facts, limit), { capped: true });
  }

  // h. Non-buyers: the landing path quotes price + platform fee (HTTP 402, docs/SPEC.md "Agent
  // payments"); elsewhere the paywall meter lets a few reads through, then upsells.
  if (requester.surface === "landing") {
    const { total, fee } = withPlatformFee(price);
    return result("payment_required", reasons.quote(total, price, use), {
      quote: { micros: total, feeMicros: fee },
    });
  }
  if (usage.meterCount < publisher.paywallMeterLimit) {
    return result("full", reasons.meteredFree(facts), { countsAgainstMeter: true });
  }
  return result("paywall_upsell", reasons.upsell(facts, price, use));
}

/** The effective policy and per-use prices of a read, and where each came from. */
export interface Terms {
  policy: Policy;
  /** Per-use prices in micros; all 0 unless the policy is PAYWALL. */
  prices: UsePrices;
  /**
   * What set the policy: the first matching non-deny rule, the article's own policy, or a crawler's
   * terms on the landing path (a charged or robots-disallowed crawler finds no free page).
   */
  policyFrom: "rule" | "article" | "crawler";
  /** What set the display price; null when the policy is not PAYWALL (nothing is priced). */
  priceFrom: "article" | "rule" | "crawler" | "publisher" | null;
  /** The first matching non-deny rule, whether or not its price was overridden. */
  ruleId: string | null;
}

/**
 * The one place policy and prices are decided (every surface, the terms page and the management
 * API read them through here). A matching rule's policy beats the article's; a paying crawler's
 * terms turn OBSERVE into PAYWALL. On a PAYWALL article display costs the per-article override,
 * else the rule's (windowed) price, else the crawler price, else the publisher's price:
 * docs/SPEC.md "Agent payments" ("per-article overrides take precedence"). Only display is
 * priced per article: docs/SPEC.md "Article" ties the per-article price to reading the article, and
 * summaries/passages keep the publisher's per-use prices. Denials are not terms: see `decide()`.
 */
export function termsOf(
  publisher: Pick<PublisherTerms, "pricesMicros">,
  article: Pick<ArticleFacts, "policy" | "priceMicros">,
  rules: Pick<RuleMatch, "policy" | "priceMicros" | "ruleId">,
  crawl?: CrawlTerms | null,
): Terms {
  // An article the publisher blocked itself stays blocked: a rule may block, never unblock (the
  // store's search eligibility, store/eligible.ts, reads the article's own policy the same way).
  const chosen = article.policy === "BLOCKED" ? "BLOCKED" : rules.policy ?? article.policy;
  const escalated = chosen === "OBSERVE" && !!crawl;
  const policy = escalated ? "PAYWALL" : chosen;
  const base = {
    policy,
    policyFrom: escalated
      ? "crawler" as const
      : rules.policy !== undefined && article.policy !== "BLOCKED"
      ? "rule" as const
      : "article" as const,
    ruleId: rules.ruleId ?? null,
  };
  // docs/SPEC.md "Article": price applies when policy is PAYWALL; OBSERVE articles are free.
  if (policy !== "PAYWALL") return { ...base, prices: FREE, priceFrom: null };
  const [display, priceFrom] = article.priceMicros !== null
    ? [article.priceMicros, "article" as const]
    : rules.priceMicros !== undefined
    ? [rules.priceMicros, "rule" as const]
    : crawl && crawl.priceMicros !== null
    ? [crawl.priceMicros, "crawler" as const]
    : [publisher.pricesMicros.display, "publisher" as const];
  return { ...base, prices: { ...publisher.pricesMicros, display }, priceFrom };
}

/**
 * What this requester may do with this article: the license block shows it, and step c checks it.
 * The one rights table decides (rights.ts, docs/decisions/licensing.md "The rights table").
 */
export function rightsOf(
  input: Pick<DecisionInput, "publisher" | "article" | "requester">,
): Rights {
  const { publisher, article, requester } = input;
  return heldRights(publisher.rights, requester, article.bookCeiling);
}

function deliverFor(outcome: Outcome, use: UseCase): Deliver {
  if (outcome === "license_limited") return "summary";
  if (outcome !== "full") return "none";
  if (use === "summarization") return "summary";
  if (use === "rag") return "passages";
  // display, and fine_tuning under an approved license, receive the full body.
  return "body";
}
