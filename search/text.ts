/** Word handling shared by the LSA model, the FTS query builder and snippets. */
import { BoundedCache } from "../store/bounded_cache.ts";
import { porterStem } from "./porter.ts";

// A common English stop list: these words carry no topic, so the model and queries skip them.
const STOP = new Set(
  ("a about above after again against all am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from further " +
    "had has have having he her here hers herself him himself his how i if in into is it its itself " +
    "just me more most my myself no nor not now of off on once only or other our ours ourselves out " +
    "over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which " +
    "while who whom why will with would you your yours yourself yourselves also may might must " +
    "shall us upon whether within without one two per via etc")
    .split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[^ -~\t\n\r]/;

/** True when `text` needs no Unicode folding: printable ASCII and whitespace only. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** True when `word` (lowercase) is a stop word. */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/** Lowercase words with diacritics removed, as FTS5's unicode61 (remove_diacritics 2) sees them. */
export function words(text: string): string[] {
  let t = text.toLowerCase();
  // unicode61 also folds a final sigma to σ (tests/porter_fts5_test.ts).
  if (NON_ASCII.test(t)) t = t.normalize("NFKD").replace(/\p{M}+/gu, "").replaceAll("ς", "σ");
  return t.match(WORD) ?? [];
}

// A memo of every word seen: a full one starts over (cheaper than keeping an order).
const stemCache = new BoundedCache<string, string>(500_000, { drop: "all" });

/** Porter stem of a lowercase word, memoised (corpora repeat words endlessly). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = porterStem(word);
    stemCache.set(word, s);
  }
  return s;
}

/** Index terms of a text: stemmed words without stop words or single letters. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < 2 || STOP.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
