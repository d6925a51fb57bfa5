/**
 * The AI crawlers and user-initiated AI fetchers the landing path knows, kept as data in
 * `crawlers.json` so the list is maintained without touching code. Each entry's `pattern` is a
 * case-insensitive regular expression source (most are plain substrings) matched against the
 * User-Agent; `pattern: null` marks a robots.txt token that no User-Agent carries (Google-Extended:
 * Google fetches with Googlebot), which matters only in robots.txt rules.
 *
 * @module
 */
import list from "./crawlers.json" with { type: "json" };

/** Why a crawler fetches: to train models, to index for AI search, or on a user's behalf. */
export type CrawlerClass = "training" | "search" | "user";

/** A crawler of the list. */
export interface KnownCrawler {
  family: string;
  operator: string;
  class: CrawlerClass;
  robotsTokens: string[];
}

interface Compiled {
  crawler: KnownCrawler;
  pattern: RegExp;
}

const CLASSES: readonly string[] = ["training", "search", "user"];
const ENTRY_KEYS = new Set([
  "family",
  "operator",
  "class",
  "pattern",
  "robotsTokens",
  "docs",
  "note",
]);

/**
 * Checks a crawler list shaped like `crawlers.json` and returns its crawlers with their compiled
 * patterns; throws naming the entry and the field on the first problem.
 */
export function checkCrawlerList(
  raw: unknown,
): { crawler: KnownCrawler; pattern: RegExp | null }[] {
  if (!Array.isArray(raw)) throw new Error("crawlers.json: expected an array of crawlers");
  const families = new Set<string>();
  return raw.map((entry: unknown, i) => {
    const where = `crawlers.json entry ${i}`;
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
      throw new Error(`${where}: expected an object`);
    }
    const e = entry as Record<string, unknown>;
    const name = typeof e.family === "string" && e.family.trim() ? e.family : null;
    const bad = (field: string, want: string) =>
      new Error(`${where}${name ? ` (${name})` : ""}: ${field} must be ${want}`);
    if (!name) throw bad("family", "a non-empty string");
    for (const key of Object.keys(e)) if (!ENTRY_KEYS.has(key)) throw bad(key, "absent (unknown)");
    if (families.has(name.toLowerCase())) throw bad("family", "unique");
    families.add(name.toLowerCase());
    if (typeof e.operator !== "string" || !e.operator.trim()) {
      throw bad("operator", "a non-empty string");
    }
    if (typeof e.class !== "string" || !CLASSES.includes(e.class)) {
      throw bad("class", `one of ${CLASSES.join(", ")}`);
    }
    const tokens = e.robotsTokens;
    if (
      !Array.isArray(tokens) || !tokens.length ||
      !tokens.every((t) => typeof t === "string" && t.trim())
    ) {
      throw bad("robotsTokens", "a non-empty array of non-empty strings");
    }
    if (typeof e.docs !== "string" || !/^https:\/\/\S+$/.test(e.docs)) {
      throw bad("docs", "an https URL");
    }
    if (e.note !== undefined && typeof e.note !== "string") throw bad("note", "a string");
    let pattern: RegExp | null = null;
    if (e.pattern !== null) {
      if (typeof e.pattern !== "string" || !e.pattern) {
        throw bad("pattern", "null or a non-empty regular expression source");
      }
      try {
        pattern = new RegExp(e.pattern, "i");
      } catch (err) {
        throw bad("pattern", `a valid regular expression (${(err as Error).message})`);
      }
      // An empty match would name every browser as this crawler.
      if (pattern.test("")) throw bad("pattern", "a pattern that does not match the empty string");
    }
    const crawler: KnownCrawler = Object.freeze({
      family: name,
      operator: e.operator,
      class: e.class as CrawlerClass,
      robotsTokens: Object.freeze([...tokens]) as string[],
    });
    return { crawler, pattern };
  });
}

const entries = checkCrawlerList(list);
const matchers: Compiled[] = entries.flatMap(({ crawler, pattern }) =>
  pattern ? [{ crawler, pattern }] : []
);
// One pass over the User-Agent answers "no crawler" for browsers, which are most requests.
const anyCrawler = new RegExp(matchers.map((m) => `(?:${m.pattern.source})`).join("|"), "i");
const byFamily = new Map(entries.map(({ crawler }) => [crawler.family.toLowerCase(), crawler]));

/** Every crawler of the list, for settings pages and validation of per-crawler settings. */
export const CRAWLERS: readonly KnownCrawler[] = Object.freeze(entries.map((e) => e.crawler));

/**
 * The crawler a User-Agent names, or null (a browser, curl, an unknown bot). Most specific match
 * wins (e.g. "Claude-User" is not "ClaudeBot"; "OAI-SearchBot" not "GPTBot"): the longest matched
 * text, then the earlier entry of the list.
 */
export function classifyAgent(userAgent: string | null | undefined): KnownCrawler | null {
  if (!userAgent || !anyCrawler.test(userAgent)) return null;
  let best: KnownCrawler | null = null;
  let bestLength = 0;
  for (const { crawler, pattern } of matchers) {
    const length = pattern.exec(userAgent)?.[0].length ?? 0;
    if (length > bestLength) [best, bestLength] = [crawler, length];
  }
  return best;
}

/** True when `family` is in the list (case-insensitive); returns the canonical family name or null. */
export function crawlerFamily(name: string): string | null {
  return byFamily.get(name.trim().toLowerCase())?.family ?? null;
}

/** The User-Agent patterns of the list (regular expression sources), for proxy configuration. */
export function crawlerPatterns(): string[] {
  return matchers.map((m) => m.pattern.source);
}
