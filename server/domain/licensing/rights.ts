/**
 * The one rights table (docs/decisions/licensing.md "The rights table"): whether a buyer may use
 * an article for summarization, display, rag or fine_tuning, from the publisher's default rights,
 * the licenses the buyer holds and the book ceiling. Every place that shows or applies rights asks
 * here: the license block and the access decision (`rightsOf()` in decide.ts), search, passages
 * and listings (`mayHoldAny()`), the marketplace catalog, the buyer portal, the terms page, the MCP
 * card, robots.txt and license.xml (`publicRights()`), and buying a subscription (`purchasable()`).
 *
 * Content rules are not rights: a territory denial or a BLOCKED policy withholds a read whatever
 * the rights say (decide.ts steps a and b), and prices are `termsOf()`'s.
 *
 * Pure: no I/O.
 *
 * @module
 */

import { USE_CASES } from "../../../store/vocabulary.ts";
import type { Rights, UseCase } from "./types.ts";

/** The uses a subscription can bundle (docs/SPEC.md "License"); fine_tuning never is one. */
export const BUNDLE_USES = ["summarization", "display", "rag"] as const;

/** What a buyer holds with one publisher at one instant (store/licenses.ts `heldGrants`). */
export interface Holdings {
  /** Uses covered by every license in force: subscriptions, enterprise licenses, approved requests. */
  licensedUses: readonly UseCase[];
}

/** Where a granted right comes from, for the words of the table. */
export type RightSource = "default" | "license" | "none";

/**
 * Whether one use is granted, and by what: the book ceiling caps everything; inside it, the
 * publisher's default grants the use to everyone, and a license in force grants it to its holder
 * even where the default no longer does (an enterprise license or approved request by the
 * publisher's own approval; a subscription because it was bought while the default granted it and
 * is kept to the end of its paid month: `withdrawnSubscriptions()`).
 */
export function rightOf(
  use: UseCase,
  defaults: Rights,
  held: Holdings,
  ceiling: Rights | null,
): RightSource {
  if (ceiling && !ceiling[use]) return "none";
  if (defaults[use]) return "default";
  if (held.licensedUses.includes(use)) return "license";
  return "none";
}

/** Every use's right for this holder (the license block's `rights`). */
export function heldRights(defaults: Rights, held: Holdings, ceiling: Rights | null): Rights {
  const rights = {} as Rights;
  for (const use of USE_CASES) rights[use] = rightOf(use, defaults, held, ceiling) !== "none";
  return rights;
}

/** What anyone is granted: the defaults (and a chapter's ceiling). Public documents state this. */
export function publicRights(defaults: Rights, ceiling: Rights | null = null): Rights {
  return heldRights(defaults, { licensedUses: [] }, ceiling);
}

/** The rights as the wire writes them: `granted` or `denied` per use. */
export function rightsWords(rights: Rights): Record<UseCase, "granted" | "denied"> {
  const out = {} as Record<UseCase, "granted" | "denied">;
  for (const use of USE_CASES) out[use] = rights[use] ? "granted" : "denied";
  return out;
}

/**
 * Whether this holder could be granted `use` on any article of the publisher (before the book
 * ceiling and rules, which are per article): lets search and listings skip a catalog no article of
 * which could be shown.
 */
export function mayHoldAny(use: UseCase, defaults: Rights, held: Holdings): boolean {
  return defaults[use] || held.licensedUses.includes(use);
}

/**
 * The uses a buyer may subscribe to anew: those the publisher grants by default. A withdrawn use
 * cannot be bought, though current subscribers keep it to the end of their paid month.
 */
export function purchasable(defaults: Rights): (typeof BUNDLE_USES)[number][] {
  return BUNDLE_USES.filter((use) => defaults[use]);
}

/** The uses a change of default rights withdraws (granted before, denied after). */
export function withdrawnUses(before: Rights, after: Rights): UseCase[] {
  return USE_CASES.filter((use) => before[use] && !after[use]);
}
