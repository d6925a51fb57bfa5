/**
 * Author names for citations (server/domain/reads/citation.ts): an article's author field ("Ann
 * Lee, Bo Chan", "Ann Lee and Bo Chan", "Lee, Ann") split into people, each with a family name,
 * given names and a suffix, or kept whole when it is no personal name (a desk, an organisation, a
 * name written family name first in a CJK script).
 */

/** One author: a person's parts, or a name to print as it is. */
export type Name =
  | { family: string; given: string; suffix: string }
  | { literal: string };

/** Lower-case particles that belong to the family name ("de la Cruz", "van Gogh"). */
const PARTICLES = new Set([
  "van",
  "von",
  "de",
  "del",
  "della",
  "der",
  "den",
  "da",
  "das",
  "dos",
  "du",
  "di",
  "la",
  "le",
  "ten",
  "ter",
  "bin",
  "al",
  "el",
]);
/** Words no personal name has: an organisation or a desk is printed as written. */
const GROUP =
  /\b(staff|team|desk|editors?|editorial|newsroom|press|news|inc\.?|ltd\.?|llc|gmbh|association|society|institute|university|council|agency|department|office|group|foundation|committee|redaktion|organi[sz]ation|corporation|company|ministry|cent(er|re)s?|bank|service|network|laborator(y|ies))\b|&/i;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The people an author field names, in order. */
export function parseAuthors(raw: string): Name[] {
  const text = raw.replace(/\s+/g, " ").trim();
  if (!text) return [];
  // "Lee, Ann" and "King, Martin Luther, Jr.": one person written family name first.
  const commas = text.split(/\s*,\s*/);
  if (!/\s(and|&)\s|;/i.test(text) && commas.length === 2 && !commas[0].includes(" ")) {
    return [{ family: commas[0], given: commas[1], suffix: "" }];
  }
  const parts = text.split(/\s*(?:;|,(?!\s*(?:jr|sr|ii|iii|iv)\b)|\sand\s)\s*/i)
    .map((p) => p.trim()).filter(Boolean)
    // "Ann Lee & Bo Chan" is two people, "Procter & Gamble" one company.
    .flatMap((p) => {
      const sides = p.split(/\s&\s/);
      return sides.length > 1 && sides.every((x) => x.includes(" ")) ? sides : [p];
    });
  return parts.map(parseName);
}

/** One person's name written given names first. */
export function parseName(name: string): Name {
  const m = name.match(/^(.*?),?\s+(jr\.?|sr\.?|ii|iii|iv|phd|md)$/i);
  const core = m ? m[1] : name;
  const suffix = m ? m[2] : "";
  const words = core.split(" ").filter(Boolean);
  if (words.length < 2 || words.length > 5 || CJK.test(core) || GROUP.test(core)) {
    return { literal: name };
  }
  let i = words.length - 1;
  while (i > 1 && PARTICLES.has(words[i - 1])) i--;
  if (i === 1 && PARTICLES.has(words[0])) return { literal: name };
  return { family: words.slice(i).join(" "), given: words.slice(0, i).join(" "), suffix };
}

/** "Lee, Ann" (MLA, Chicago): family name, given names, then any suffix. */
export function inverted(n: Name): string {
  if ("literal" in n) return n.literal;
  return `${n.family}, ${n.given}${n.suffix ? `, ${n.suffix}` : ""}`;
}

/** "Ann Lee" as written, for the names after the first in MLA and Chicago. */
export function direct(n: Name): string {
  if ("literal" in n) return n.literal;
  return `${n.given} ${n.family}${n.suffix ? `, ${n.suffix}` : ""}`;
}

/** "Lee, A. B." (APA 7 §9.8): initials of every given name, hyphenated ones kept ("J.-P."). */
export function initialled(n: Name): string {
  if ("literal" in n) return n.literal;
  const initials = n.given.split(" ").filter(Boolean).map((g) =>
    g.split("-").map((p) => `${[...p.replace(/\.$/, "")][0]?.toUpperCase() ?? ""}.`).join("-")
  ).join(" ");
  return `${n.family}, ${initials}${n.suffix ? `, ${n.suffix}` : ""}`;
}
