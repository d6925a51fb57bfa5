/**
 * The one robots.txt verdict (RFC 9309) for (origin, user agent, path), from what the store knows
 * of the origin's file. Ingestion (our own token) and the landing path's escalation (a crawler's
 * tokens) both answer through `robotsVerdictOf()`; they differ only in how the record is obtained.
 * It never fails open: an origin whose file is not known yet, or whose last answer was a 5xx, a
 * 429 or no answer at all, disallows everything (section 2.3.1.4) until a fetch says otherwise.
 */
import { BoundedCache } from "../../../store/bounded_cache.ts";
import type { RobotsRecord } from "../../../store/robots.ts";
import { parseRobots, ROBOTS_TOKEN, type RobotsRules, statusRule } from "./robots_rules.ts";

/** Whether a URL may be fetched by an agent, and the sentence saying why not. */
export type RobotsDecision =
  | { allowed: true }
  | { allowed: false; reason: string };

/** Why the host is not known to allow anything: never asked, or asked and it failed. */
const UNTIL = "the host is treated as disallowed until it answers";

/**
 * The verdict for `url` and an agent answering to `tokens` (any one disallowed disallows; none is
 * the `*` group), given the origin's stored record, or null when it was never fetched. `owner`
 * keys the parsed-rules cache (store and publisher).
 */
export function robotsVerdictOf(
  rec: RobotsRecord | null,
  url: string,
  tokens: readonly string[] = [ROBOTS_TOKEN],
  owner = "",
): RobotsDecision {
  if (!rec) return { allowed: false, reason: `robots.txt has not been fetched yet; ${UNTIL}` };
  const rule = statusRule(rec.status);
  if (rule === "allow_all") return { allowed: true };
  if (rule === "disallow_all") {
    const why = rec.status === 0 ? "could not be fetched" : `answered HTTP ${rec.status}`;
    return { allowed: false, reason: `robots.txt ${why}; ${UNTIL}` };
  }
  const robots = rulesOf(rec, owner);
  if (!robots) return { allowed: true };
  for (const token of tokens.length ? tokens : ["*"]) {
    if (!robots.isAllowed(url, token)) {
      return { allowed: false, reason: `robots.txt disallows ${token}` };
    }
  }
  return { allowed: true };
}

/** Whether the record's answer was usable (rules or none): a failed one is retried sooner. */
export function answered(rec: { status: number }): boolean {
  return statusRule(rec.status) !== "disallow_all";
}

const parsedCache = new BoundedCache<
  string,
  { fetchedAt: number; body: string; robots: RobotsRules }
>(1000);

/** The record's parsed rules, kept per owner and origin while the stored fetch is the same. */
function rulesOf(rec: RobotsRecord, owner: string): RobotsRules | null {
  if (!rec.body) return null;
  const key = `${owner}\n${rec.origin}`;
  let cached = parsedCache.get(key);
  if (!cached || cached.fetchedAt !== rec.fetchedAt || cached.body !== rec.body) {
    cached = { fetchedAt: rec.fetchedAt, body: rec.body, robots: parseRobots(rec.body) };
    parsedCache.set(key, cached);
  }
  return cached.robots;
}
