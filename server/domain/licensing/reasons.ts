/**
 * The words of the access decision: every sentence a decision's `reason` can hold, in one place.
 * Surfaces show `decision.reason` as it is and add only their protocol's how-to (where to send a
 * key, how to resend), so an outcome reads the same on REST, MCP and A2A.
 *
 * @module
 */
import {
  METERED_CAP_MICROS,
  microsToCents,
  PLATFORM_FEE_TEXT,
  usdText,
} from "../../platform/money.ts";
import type { UseCase } from "./types.ts";

/** How to ask for more rights (docs/SPEC.md "License block": `requestVia`). */
export const REQUEST_VIA =
  "Call the request_license MCP tool on this publisher's MCP server (use_case, message, contact) to ask for a license; the publisher approves or denies it in its approval workflow.";

/** The facts a sentence may name. */
export interface ReasonFacts {
  /** The publisher's name. */
  publisher: string;
  /** The URL an agent should cite (canonical when known). */
  cite: string;
}

/** Which monthly limit stopped a charge: the platform cap or the buyer's own budget. */
export type SpendLimit = "cap" | "budget";

/** docs/SPEC.md "Limits": the metered spend cap, with the publisher it applies to. */
function capReached(f: ReasonFacts, limit: SpendLimit): string {
  if (limit === "budget") {
    return `Your monthly budget does not cover this read from ${f.publisher}`;
  }
  return `Your metered spend with ${f.publisher} reached the ${
    usdText(METERED_CAP_MICROS)
  } monthly cap`;
}

function cents(micros: number): number {
  return microsToCents(micros);
}

/** Sentence builders, one per way a decision can end. */
export const reasons = {
  territory: (f: ReasonFacts) =>
    `${f.publisher}'s content rules exclude your region for this article.`,
  blocked: (f: ReasonFacts) => `${f.publisher} blocks this article for AI agents.`,
  summaryOnly: (f: ReasonFacts) =>
    `The license grants summarization only: here is the summary. Cite ${f.cite}.`,
  denied: () => `No AI use of this article is licensed to you. ${REQUEST_VIA}`,
  cappedSummary: (f: ReasonFacts, limit: SpendLimit) =>
    `${capReached(f, limit)}; you hold summary rights only. Cite ${f.cite}.`,
  cappedDenied: (f: ReasonFacts, limit: SpendLimit) =>
    `${capReached(f, limit)}; ${
      limit === "budget" ? "raise the budget or subscribe" : "a subscription lifts it"
    }. ${REQUEST_VIA}`,
  licensed: (f: ReasonFacts, use: UseCase) =>
    `Served under your ${use} license with ${f.publisher}; cite ${f.cite}.`,
  free: (f: ReasonFacts) => `Served free under ${f.publisher}'s terms; cite ${f.cite}.`,
  charged: (f: ReasonFacts, micros: number) =>
    `Served and charged ${cents(micros)} cents per use; cite ${f.cite}.`,
  meteredFree: (f: ReasonFacts) =>
    `Served as a free metered read of a paywalled article; cite ${f.cite}.`,
  quote: (total: number, price: number) =>
    `This article costs ${cents(total)} cents (${cents(price)} plus a ${PLATFORM_FEE_TEXT} ` +
    "platform fee); " +
    "pay to read it.",
  upsell: (f: ReasonFacts, price: number) =>
    `You have used your free reads of ${f.publisher}'s paywalled articles this month; sign up ` +
    `as a buyer for metered access at ${cents(price)} cents per use. ${REQUEST_VIA}`,
} as const;
