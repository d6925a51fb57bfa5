/**
 * Types of the one access decision (docs/DESIGN.md §5). All money is integer micros (µUSD) except the
 * advertised `pricingUsdCents`, which is the license block's wire form (docs/SPEC.md "License block").
 *
 * @module
 */

import type {
  ContentRule,
  Policy,
  Rights,
  Surface,
  UseCase,
  UsePrices,
} from "../../../store/vocabulary.ts";

export type { ContentRule, Policy, Rights, Surface, UseCase, UsePrices };

/** The publisher's settings that the decision reads. */
export interface PublisherTerms {
  id: string;
  name: string;
  rights: Rights;
  /** Per-use prices, charged only on PAYWALL articles. */
  pricesMicros: UsePrices;
  /** Free PAYWALL reads per non-buyer identity per UTC month. */
  paywallMeterLimit: number;
}

/** The article's facts that the decision reads. */
export interface ArticleFacts {
  id: string;
  /** The URL content rules match on (the URL the article was ingested from). */
  url: string;
  /** The URL agents are told to cite: the canonical URL when known. */
  citeUrl: string;
  /** ISO 8601 timestamp; embargo rules measure age from it. */
  publishedAt: string;
  policy: Policy;
  /** Per-article price override; applies to display when PAYWALL. */
  priceMicros: number | null;
  /** Author-contract rights ceiling for book chapters; null for ordinary articles. */
  bookCeiling: Rights | null;
}

/** Who is asking (docs/DESIGN.md §4 "Identity of a request"). */
export interface Requester {
  /** Meter key: "buyer:<id>" | "oauth:<clientId>" | "sess:<id>" | "crawler:<family>" | "anon". */
  identity: string;
  buyerId: string | null;
  /**
   * Use cases covered by ACTIVE licenses in force for this publisher (fine_tuning: approved
   * request): granted even where the publisher's default rights deny them (rights.ts).
   */
  licensedUses: UseCase[];
  /** The part of `licensedUses` the publisher approved itself (request or enterprise license). */
  approvedUses: UseCase[];
  /** ISO 3166 alpha-2; null (unknown) matches no territory rule. */
  territory: string | null;
  surface: Surface;
  /** A crawler on the landing path that pays for every page it takes; absent elsewhere. */
  crawl?: CrawlTerms | null;
  /**
   * The read is under an RSL license token (docs/decisions/rsl.md), good for this article only:
   * any other is license_denied, whatever else would allow it.
   */
  license?: { articleId: string; resource: string } | null;
  /** The buyer's suspension (an overdue invoice, or by hand): priced reads are refused. */
  suspension?: Overdue | null;
}

/** What a suspended buyer is told to pay, and where (docs/decisions/billing.md "Suspension"). */
export interface Overdue {
  /** "FOLIO-000042", or null for a suspension by hand without an invoice. */
  invoiceNumber: string | null;
  url: string;
}

/**
 * A crawler's terms on the landing path (docs/SPEC.md "Agent payments"): charged by the publisher's
 * setting or escalated because the origin's robots.txt disallows it; its free pages become PAYWALL.
 */
export interface CrawlTerms {
  why: "charge" | "robots";
  /** The crawler price per page, before the fee; null: the publisher's full-display price. */
  priceMicros: number | null;
}

/** This month's counters for the requester and publisher (UTC month). */
export interface UsageState {
  /** Buyer's metered spend with this publisher this UTC month. */
  spentThisMonthMicros: number;
  /**
   * What the buyer's own budgets (overall and for this publisher) still allow this month; null when
   * the buyer set none. Binds like the cap, below it.
   */
  budgetLeftMicros: number | null;
  /** Non-buyer PAYWALL reads counted this month for this identity. */
  meterCount: number;
}

/** Everything the decision needs; gathered by the caller so that `decide()` stays pure. */
export interface DecisionInput {
  publisher: PublisherTerms;
  article: ArticleFacts;
  rules: ContentRule[];
  requester: Requester;
  use: UseCase;
  usage: UsageState;
  now: Date;
}

/** Named outcomes; their REST form is in docs/SPEC.md "Errors" and docs/DESIGN.md §5. */
export type Outcome =
  | "full"
  | "license_limited"
  | "blocked"
  | "license_denied"
  | "territory_blocked"
  | "paywall_upsell"
  | "payment_required"
  | "payment_overdue";

/** What the surface should send back. */
export type Deliver = "body" | "summary" | "passages" | "none";

/** A charge to record in the same transaction that checks the cap (docs/DESIGN.md §5). */
export interface Charge {
  /** Amount billed to the buyer: the price, plus the platform fee on the landing path. */
  micros: number;
  use: UseCase;
  kind: "metered" | "landing";
  /** Platform fee inside `micros`; 0 for metered charges. */
  feeMicros: number;
}

/** A price quoted to a non-buyer on the landing path (HTTP 402); nothing is charged. */
export interface Quote {
  /** Publisher price plus the 4.7% platform fee. */
  micros: number;
  feeMicros: number;
}

/** The one access decision. */
export interface Decision {
  outcome: Outcome;
  deliver: Deliver;
  /** Effective policy after content rules. */
  policy: Policy;
  /** Rights block for the license block: publisher rights ∩ book ceiling. */
  rights: Rights;
  /** Advertised per-use prices in cents (fractional allowed); all 0 unless the policy is PAYWALL. */
  pricingUsdCents: UsePrices;
  charge: Charge | null;
  quote: Quote | null;
  /** True when this read uses one of the non-buyer's free PAYWALL reads. */
  countsAgainstMeter: boolean;
  /** True when the buyer hit the monthly cap and fell back to held rights. */
  capped: boolean;
  /** Rules that took effect: the first matching policy/price rule and every matching denial. */
  matchedRuleIds: string[];
  /** A sentence an agent can act on. */
  reason: string;
  /** On `payment_overdue`: the invoice to pay and its page. */
  overdue?: Overdue;
}
