/**
 * The content rules in plain words for the public terms page (docs/SPEC.md "Content rules"):
 * where a rule applies, what it changes, and its name, e.g.
 * "Articles under /premium/: paywalled at $0.05 per read (rule 'Premium')".
 */
import type { ContentRule } from "../domain/licensing/mod.ts";
import { formatRate, microsToCents } from "../platform/money.ts";
import { plural } from "../platform/words.ts";
import { timeInWords } from "../platform/local_time.ts";

/** One sentence per rule that still changes a policy, a price or access, in the order given. */
export function ruleSentences(rules: readonly ContentRule[], now: Date): string[] {
  return rules
    .filter((r) => !priceOnlyAndOver(r, now))
    .map((r) => {
      const name = r.name ? ` (rule '${r.name}')` : "";
      return `${scopeOf(r)}: ${effectOf(r)}${windowOf(r)}${name}.`;
    });
}

function scopeOf(rule: ContentRule): string {
  const { path, publishedWithinHours: hours, territories } = rule.match;
  const young = hours === undefined ? "" : ` published less than ${plural(hours, "hour")} ago`;
  const where = path === undefined
    ? ""
    : path.includes("*")
    ? ` matching ${path}`
    : ` under ${path}`;
  const subject = where || young ? `Articles${where}${young}` : territories ? "" : "All articles";
  if (!territories) return subject;
  const readers = `readers in ${territories.join(", ")}`;
  return subject ? `${subject}, for ${readers}` : `For ${readers}`;
}

function effectOf(rule: ContentRule): string {
  const { policy, priceMicros, deny } = rule.action;
  if (deny) return "not available";
  const price = priceMicros === undefined
    ? null
    : `${formatRate(microsToCents(priceMicros))} per read`;
  if (policy === "BLOCKED") return "not available to AI agents";
  if (policy === "OBSERVE") return "free to read";
  if (policy === "PAYWALL") return `paywalled at ${price ?? "the default price"}`;
  return `${price} where paywalled`;
}

function windowOf(rule: ContentRule): string {
  const w = rule.action.window;
  return w ? `, from ${utc(w.start)} until ${utc(w.end)} UTC` : "";
}

/** A rule that only sets a price whose window has ended changes nothing any more. */
function priceOnlyAndOver(rule: ContentRule, now: Date): boolean {
  const w = rule.action.window;
  return rule.action.policy === undefined && w !== undefined &&
    Date.parse(w.end) <= now.getTime();
}

/** A public page has no reader's zone: its times are UTC's, in words, and it says so. */
function utc(iso: string): string {
  return timeInWords(iso, "UTC");
}
