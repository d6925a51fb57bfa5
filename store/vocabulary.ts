/**
 * Folio's domain words, defined once: the store persists them and the server reasons with them,
 * so both import this module and the store never reaches up into the server (docs/DESIGN.md §4).
 *
 * @module
 */

/** What is asked for: full body = display, summary = summarization, passages/search = rag. */
export const USE_CASES = ["summarization", "display", "rag", "fine_tuning"] as const;
/** A use of content (docs/SPEC.md "License block"). */
export type UseCase = typeof USE_CASES[number];

/** A granted/denied flag per use case (docs/SPEC.md "Content license"). */
export type Rights = Record<UseCase, boolean>;

/** Per-use amounts (prices) for the use cases that can be metered; fine_tuning never is. */
export interface UsePrices {
  summarization: number;
  display: number;
  rag: number;
}

/** Article policies; BLOCKED is ours: the publisher blocks the article for AI agents. */
export const POLICIES = ["OBSERVE", "PAYWALL", "BLOCKED"] as const;
/** An article's policy (docs/SPEC.md "Article", docs/DESIGN.md §4). */
export type Policy = typeof POLICIES[number];

/** The surfaces a request can arrive on; every call-log row names one. */
export const SURFACES = ["rest", "mcp", "a2a", "landing", "nlweb", "dashboard", "oauth"] as const;
/** A surface (docs/SPEC.md "Events"). */
export type Surface = typeof SURFACES[number];

/** Status of a call-log row: trace marks protocol-level calls (docs/SPEC.md "Events"). */
export type CallStatus = "ok" | "error" | "trace";

/** A publisher content rule (docs/SPEC.md "Content rules"). Prices are micro-dollars. */
export interface ContentRule {
  id: string;
  /** A name for people (the dashboard, explain, the terms page); optional. */
  name?: string;
  /** Lower evaluates first; ties are broken by id. */
  priority: number;
  /** Fields AND together; an empty match matches everything. */
  match: {
    /** Prefix ("/premium/") or `*` glob ("/20*\/opinion/*") on the URL pathname. */
    path?: string;
    /** Matches articles younger than this many hours (embargo). */
    publishedWithinHours?: number;
    /** ISO 3166 alpha-2 codes of the requester, case-insensitive. */
    territories?: string[];
  };
  action: {
    policy?: Policy;
    priceMicros?: number;
    /** Bounds the rule's price in time: [start, end), ISO 8601. */
    window?: { start: string; end: string };
    /** Territory denial; denials stack regardless of priority. */
    deny?: boolean;
  };
}
