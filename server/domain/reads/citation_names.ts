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

/** What follows a name after a comma or "for" in a byline: a role or where the person writes. */
const ROLE =
  /\b(writer|reporter|correspondent|editor|columnist|contributor|critic|photographer|producer|analyst|chief|bureau|staff|freelance|special to)\b/i;
/** A web address standing for the outlet ("Cleveland.com", "nj.com"). */
const DOMAIN = /^[\w-]+(\.[\w-]+)*\.[a-z]{2,}$/i;
/** Titles before a name, which no style cites (APA 7 §9.8, MLA 9 2.1.1): "Dr. Jane Smith". */
const HONORIFIC =
  /^(dr|prof|professor|sir|dame|lord|lady|rev|revd|reverend|fr|mr|mrs|ms|mx|miss|hon|capt|col|gen|lt|sgt|sen|rep|gov)\.?$/i;
/** Degrees after a name, left out like the titles before it ("Jane Doe MD", "Jane Doe, Ph.D."). */
const DEGREE = /^(ph\.?\s?d|m\.?d|dphil|mba|esq|rn)\.?$/i;
/** A credit line's part for the people who did not write ("Editing by …", "Photos by …"). */
const NOT_WRITING =
  /^(editing|edited|photos?|photographs?|photography|graphics|illustrations?|video|design|production|fact-checking) by\s/i;
/** How a credit line introduces its writers ("Reporting by", "Additional reporting by"). */
const WRITING = /^(additional |further )?(reporting|writing|written|words|text|story) by\s+/i;

/** The people an author field names, in order. */
export function parseAuthors(raw: string): Name[] {
  // "Jackie Roman | NJ Advance Media for NJ.com": the person before the bar, the outlet after it;
  // "By Jane Doe", "Jane Doe (Reuters)": the person without the byline's word or the outlet.
  const text = raw.replace(/\s+/g, " ").trim().split(" | ")[0]
    .replace(/^by\s+/i, "").replace(/\s*\([^()]*\)$/, "").trim();
  if (!text) return [];
  // "Lee, Ann" and "King, Martin Luther, Jr.": one person written family name first.
  const commas = text.split(/\s*,\s*/);
  const suffixed = commas.length === 3 && /^(jr|sr|ii|iii|iv)\.?$/i.test(commas[2]);
  if (
    !/\s(and|&)\s|;/i.test(text) && (commas.length === 2 || suffixed) &&
    !commas[0].includes(" ") && !isAffiliation(commas[1])
  ) {
    return [{ family: commas[0], given: commas[1], suffix: suffixed ? commas[2] : "" }];
  }
  // Parts: people, or what follows one (a role, an outlet), split at semicolons, commas, "and"
  // and spaced dashes ("Jane Doe - Senior Reporter"); a credit line's editors are no authors.
  const parts = text
    .split(/\s*(?:;|,\s*and\s|,(?!\s*(?:jr|sr|ii|iii|iv)\b)|\sand\s|\s[-–—]\s)\s*/i)
    .map((p) => p.trim()).filter((p) => p && !NOT_WRITING.test(p))
    .map((p) => p.replace(WRITING, ""))
    // "Ann Lee & Bo Chan" is two people, "Procter & Gamble" one company.
    .flatMap((p) => {
      const sides = p.split(/\s&\s/);
      return sides.length > 1 && sides.every((x) => x.includes(" ")) ? sides : [p];
    });
  const names: Name[] = [];
  for (const part of parts) {
    // "ROBERT BURNS, AP National Security Writer", "Troy L. Smith, Cleveland.com", "Ann Lee,
    // Reuters": after a person, a role or an outlet is where they write, not a co-author.
    const afterPerson = names.some((n) => !("literal" in n));
    if (afterPerson && (isAffiliation(part) || !part.includes(" "))) continue;
    // "Ann Lee for NJ.com": the person, without the outlet they write for.
    const person = parseName(part.replace(/\s+for\s+\S.*$/i, ""));
    names.push("literal" in person ? parseName(part) : person);
  }
  return names;
}

/**
 * A byline's role or outlet: "AP National Security Writer", "Cleveland.com", "Associated Press",
 * "The Washington Post" (no personal name starts with "The"), "Ph.D.".
 */
function isAffiliation(part: string): boolean {
  const t = part.trim();
  return ROLE.test(t) || DOMAIN.test(t) || GROUP.test(t) || /^the\s/i.test(t) || DEGREE.test(t);
}

/** One person's name written given names first. */
export function parseName(name: string): Name {
  const all = name.split(" ").filter(Boolean);
  // "Mr. Rogers": a title and one name say too little to invert.
  if (all.length === 2 && HONORIFIC.test(all[0])) return { literal: name };
  // "Dr. Jane Smith", "Jane Smith MD": titles and degrees are no part of the name cited.
  let from = 0;
  while (from < all.length - 2 && HONORIFIC.test(all[from])) from++;
  let to = all.length;
  while (to - from > 2 && DEGREE.test(all[to - 1].replace(/,$/, ""))) to--;
  const kept = all.slice(from, to).join(" ");
  const m = kept.match(/^(.*?),?\s+(jr\.?|sr\.?|ii|iii|iv)$/i);
  const written = m ? m[1] : kept;
  const suffix = m ? m[2] : "";
  const words = written.split(" ").filter(Boolean);
  if (words.length < 2 || words.length > 5 || CJK.test(written) || GROUP.test(written)) {
    return { literal: name };
  }
  // A byline set in capitals ("ROBERT BURNS") is a name, cited in its ordinary case.
  if (!/\p{Ll}/u.test(written)) words.splice(0, words.length, ...words.map(ordinaryCase));
  let i = words.length - 1;
  // Particles before the family name belong to it, capitalised or not ("Abigail Van Buren").
  while (i > 1 && PARTICLES.has(words[i - 1].toLowerCase())) i--;
  if (i === 1 && PARTICLES.has(words[0])) return { literal: name };
  return { family: words.slice(i).join(" "), given: words.slice(0, i).join(" "), suffix };
}

/** "O'BRIEN" → "O'Brien", "JEAN-PAUL" → "Jean-Paul": each part capitalised, the rest small. */
function ordinaryCase(word: string): string {
  return word.toLowerCase().replace(/(^|[-'’])(\p{L})/gu, (_, sep, ch) => sep + ch.toUpperCase());
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
  // "J.K." is two given names: "J. K.".
  const initials = n.given.replace(/\.(?=\p{L})/gu, ". ").split(" ").filter(Boolean).map((g) =>
    g.split("-").map((p) => `${[...p.replace(/\.$/, "")][0]?.toUpperCase() ?? ""}.`).join("-")
  ).join(" ");
  return `${n.family}, ${initials}${n.suffix ? `, ${n.suffix}` : ""}`;
}
