/**
 * The words of the access decision: every sentence a decision's `reason` can hold, in one place.
 * Every surface shows `decision.reason` as its one human sentence for an outcome (REST `message`,
 * MCP `structuredContent.message` and the text it starts, A2A's status message text); a surface
 * adds only structured fields (status, price, links, its protocol's how-to), so an outcome reads
 * the same on REST, MCP and A2A (tests/outcome_words_test.ts). Prices are written in USD.
 *
 * @module
 */
import {
  METERED_CAP_MICROS,
  PLATFORM_FEE_TEXT,
  usdPriceText,
  usdText,
} from "../../platform/money.ts";
import { noun, plural } from "../../platform/words.ts";
import type { UseCase } from "./types.ts";

/** How to ask for more rights (docs/SPEC.md "License block": `requestVia`). */
export const REQUEST_VIA =
  "Ask for a license with the request_license tool on this publisher's MCP server (use_case, message, max_monthly_usd) or POST /api/marketplace/license-requests with a buyer key (publisherId, useCase, message, maxMonthlyUsdCents); the publisher answers with an offer your buyer accepts before anything is billed, or a denial with its reason.";

/** The facts a sentence may name. */
export interface ReasonFacts {
  /** The publisher's name. */
  publisher: string;
  /** The URL an agent should cite (canonical when known). */
  cite: string;
}

/**
 * Which monthly limit stopped a charge, the platform cap or the buyer's own budget, and the real
 * figures: what this read would bill, the month's spend with the publisher (the cap's count) and,
 * for a budget, what is left of it.
 */
export interface SpendLimit {
  limit: "cap" | "budget";
  readMicros: number;
  spentMicros: number;
  budgetLeftMicros: number | null;
}

/**
 * docs/SPEC.md "Limits": the metered spend cap, with the publisher it applies to and the month's
 * actual spend against it (issue 29 item 8: the refusal states the real spend).
 */
function capReached(f: ReasonFacts, s: SpendLimit): string {
  const read = usdPriceText(s.readMicros);
  if (s.limit === "budget") {
    return `Your monthly budget does not cover this ${read} read from ${f.publisher}: ${
      usdPriceText(Math.max(0, s.budgetLeftMicros ?? 0))
    } of it is left this month`;
  }
  return `Your metered spend with ${f.publisher} this month is ${
    usdPriceText(s.spentMicros)
  } against the ${usdText(METERED_CAP_MICROS)} monthly cap, so this ${read} read would pass it`;
}

/** Sentence builders, one per way a decision can end. */
export const reasons = {
  territory: (f: ReasonFacts) =>
    `${f.publisher}'s content rules exclude your region for this article.`,
  /** Search whose every reachable hit a territory rule withholds (docs/SPEC.md "Errors": 451). */
  territorySearch: (publisher: string) =>
    `${publisher}'s content rules exclude your region for every article this search could return.`,
  /** Search that left out some hits for the requester's territory. */
  withheld: (publisher: string, count: number) =>
    `${plural(count, "result")} withheld: ${publisher}'s content rules exclude your region for ${
      noun(count, "it", "them")
    }.`,
  blocked: (f: ReasonFacts) => `${f.publisher} blocks this article for AI agents.`,
  summaryOnly: (f: ReasonFacts) =>
    `The license grants summarization only: here is the summary. Cite ${f.cite}.`,
  denied: () => `No AI use of this article is licensed to you. ${REQUEST_VIA}`,
  cappedSummary: (f: ReasonFacts, limit: SpendLimit) =>
    `${capReached(f, limit)}; you hold summary rights only. Cite ${f.cite}.`,
  cappedDenied: (f: ReasonFacts, limit: SpendLimit) =>
    `${capReached(f, limit)}; ${
      limit.limit === "budget" ? "raise the budget or subscribe" : "a subscription lifts it"
    }. ${REQUEST_VIA}`,
  licensed: (f: ReasonFacts, use: UseCase) =>
    `Served under your ${use} license with ${f.publisher}; cite ${f.cite}.`,
  free: (f: ReasonFacts) => `Served free under ${f.publisher}'s terms; cite ${f.cite}.`,
  charged: (f: ReasonFacts, micros: number, use: UseCase) =>
    `Served and charged ${usdPriceText(micros)} for this ${use} use; cite ${f.cite}.`,
  meteredFree: (f: ReasonFacts) =>
    `Served as a free metered read of a paywalled article; cite ${f.cite}.`,
  /** The landing path's 402 (docs/SPEC.md "Agent payments"): the total a buyer is billed. */
  quote: (total: number, price: number, use: UseCase) =>
    `This article costs ${usdPriceText(total)} per ${use} use (${usdPriceText(price)} plus a ` +
    `${PLATFORM_FEE_TEXT} platform fee); pay to read it.`,
  /** A suspended buyer's priced read (docs/decisions/billing.md "Suspension"). */
  paymentOverdue: (o: { invoiceNumber: string | null; url: string }) =>
    o.invoiceNumber
      ? `Priced reads are suspended: invoice ${o.invoiceNumber} is overdue. Pay it at ${o.url} and reads resume at once; free articles still work.`
      : `Priced reads are suspended for this account by the operator. See ${o.url}; free articles still work.`,
  /** A non-buyer past the paywall meter (docs/SPEC.md "MCP server": the upsell). */
  upsell: (f: ReasonFacts, price: number, use: UseCase) =>
    `Your free reads this month are used: sign up as a buyer to read this article at ` +
    `${usdPriceText(price)} per ${use}, or subscribe to ${f.publisher}.`,
} as const;
