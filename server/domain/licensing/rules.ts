/**
 * Content rule matching (docs/SPEC.md "Content rules", docs/DESIGN.md §5). Pure: `now` is an input.
 *
 * @module
 */

import { BoundedCache } from "../../../store/bounded_cache.ts";
import type { ArticleFacts, ContentRule, Policy, Requester } from "./types.ts";

/** What the rules need to know about one read. */
export interface RuleContext {
  article: ArticleFacts;
  requester: Requester;
  now: Date;
}

/** The combined effect of the rules that match one read. */
export interface RuleMatch {
  /** True when any matching rule denies (denials stack, whatever their priority). */
  denied: boolean;
  denyRuleIds: string[];
  /** The first matching non-deny rule: the one that sets policy and/or price. */
  ruleId?: string;
  /** Set by the first matching non-deny rule, if it sets a policy. */
  policy?: Policy;
  /** Set by the first matching non-deny rule when its price applies now (inside its window). */
  priceMicros?: number;
  /** Rules that took effect, in evaluation order: the first non-deny match and every denial. */
  matchedRuleIds: string[];
}

const HOUR_MS = 3_600_000;

/** Evaluate content rules: lower priority first (ties by id); first non-deny match wins; denials stack. */
export function matchRules(rules: readonly ContentRule[], context: RuleContext): RuleMatch {
  const result: RuleMatch = { denied: false, denyRuleIds: [], matchedRuleIds: [] };
  let decided = false;
  let pathname: string | undefined; // parsed once per read, when a rule first needs it
  const path = () => pathname ??= articlePathname(context.article.url);
  for (const rule of sortRules(rules)) {
    if (!matchesRead(rule, context, path)) continue;
    if (rule.action.deny) {
      result.denied = true;
      result.denyRuleIds.push(rule.id);
      result.matchedRuleIds.push(rule.id);
      continue;
    }
    if (decided) continue;
    const price = priceInWindow(rule, context.now);
    // A rule that would change nothing right now (e.g. only a price outside its window) does not
    // match, so it cannot shadow a later rule.
    if (rule.action.policy === undefined && price === undefined) continue;
    decided = true;
    result.ruleId = rule.id;
    result.matchedRuleIds.push(rule.id);
    if (rule.action.policy !== undefined) result.policy = rule.action.policy;
    if (price !== undefined) result.priceMicros = price;
  }
  return result;
}

/**
 * Whether a territory denial withholds every article from this requester: a deny rule for its
 * territory with no embargo and a path every article matches (none, `/`, `*` or `/*`). Search
 * then answers territory_blocked whatever the query (docs/SPEC.md "Errors": 451).
 */
export function withholdsAll(rules: readonly ContentRule[], territory: string | null): boolean {
  return rules.some((rule) => {
    const { path, publishedWithinHours, territories } = rule.match;
    return rule.action.deny === true && territories !== undefined &&
      publishedWithinHours === undefined &&
      (path === undefined || path === "/" || path === "*" || path === "/*") &&
      inTerritories(territory, territories);
  });
}

/** Match a `*` glob (any run of characters, `/` included) in full, or else a prefix, on a pathname. */
export function pathMatches(pattern: string, pathname: string): boolean {
  if (!pattern.includes("*")) return pathname.startsWith(pattern);
  return globRegExp(pattern).test(pathname);
}

// Compiled globs: every read and every listed article evaluates the same few patterns. Bounded by
// dropping the oldest, so patterns of deleted rules do not accumulate.
const GLOBS = new BoundedCache<string, RegExp>(1000);

function globRegExp(pattern: string): RegExp {
  let re = GLOBS.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "s");
    GLOBS.set(pattern, re);
  }
  return re;
}

/** The pathname of an article URL; a bare path is used as is. */
export function articlePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function sortRules(rules: readonly ContentRule[]): ContentRule[] {
  // Code-unit id comparison, not localeCompare, so the order never depends on the host locale.
  return [...rules].sort((a, b) =>
    a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function matchesRead(
  rule: ContentRule,
  { article, requester, now }: RuleContext,
  pathname: () => string,
): boolean {
  const { path, publishedWithinHours, territories } = rule.match;
  if (path !== undefined && !pathMatches(path, pathname())) return false;
  if (publishedWithinHours !== undefined && !isYounger(article, publishedWithinHours, now)) {
    return false;
  }
  if (territories !== undefined && !inTerritories(requester.territory, territories)) return false;
  return true;
}

/** Embargo: strictly younger than the limit; exactly at the limit the embargo has ended. */
function isYounger(article: ArticleFacts, hours: number, now: Date): boolean {
  const published = Date.parse(article.publishedAt);
  // An unparseable date is treated as fresh: embargo rules restrict, so failing closed is safer.
  if (Number.isNaN(published)) return true;
  return now.getTime() - published < hours * HOUR_MS;
}

/** An unknown territory matches no territory rule (docs/SPEC.md "Content rules"). */
function inTerritories(territory: string | null, territories: readonly string[]): boolean {
  if (territory === null || territory === "") return false;
  const wanted = territory.toUpperCase();
  return territories.some((code) => code.toUpperCase() === wanted);
}

/** The rule's price if it applies at `now`: a window is half-open, [start, end). */
function priceInWindow(rule: ContentRule, now: Date): number | undefined {
  const { priceMicros, window } = rule.action;
  if (priceMicros === undefined) return undefined;
  if (window === undefined) return priceMicros;
  const t = now.getTime();
  const inside = Date.parse(window.start) <= t && t < Date.parse(window.end);
  return inside ? priceMicros : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
