/**
 * The Porter stemmer exactly as SQLite FTS5's `porter` tokenizer runs it (ext/fts5/fts5_tokenize.c,
 * `fts5PorterCb`), so that a word's stem here is the term FTS5 indexed: `commonWords()` counts
 * documents per term through fts5vocab, and the LSA model should see the same terms. FTS5's
 * departures from Porter (1980) are kept: the C reference's `logi`→`log` and `bli`→`ble` in step
 * 2; a `y` counts as a vowel anywhere but first in the *v* test; tokens shorter than 3 or longer
 * than 64 bytes pass through; and it works on UTF-8 bytes of any token, digits included
 * ("50degrees" → "50degre"). tests/porter_fts5_test.ts compares it with fts5vocab word by word.
 */

const MAX_TOKEN = 64;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const A = 97, E = 101, I = 105, O = 111, U = 117, Y = 121;
const L = 108, S = 115, T = 116, Z = 122, W = 119, X = 120;

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/** The length of the first VC run of `b[from, from+n)`, 0 if there is none (fts5PorterGobbleVC). */
function gobbleVC(b: Uint8Array, from: number, n: number, prevCons: boolean): number {
  let cons = prevCons;
  let i = 0;
  for (; i < n; i++) if (!(cons = !isVowel(b[from + i], cons))) break;
  for (i++; i < n; i++) if ((cons = !isVowel(b[from + i], cons))) return i + 1;
  return 0;
}

const mGt0 = (b: Uint8Array, n: number) => gobbleVC(b, 0, n, false) > 0;
function mGt1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k > 0 && gobbleVC(b, k, n - k, true) > 0;
}
function mEq1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k > 0 && gobbleVC(b, k, n - k, true) === 0;
}
/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(b: Uint8Array, n: number): boolean {
  const last = b[n - 1];
  if (last === W || last === X || last === Y) return false;
  let mask = 0;
  let cons = false;
  for (let i = 0; i < n; i++) {
    cons = !isVowel(b[i], cons);
    mask = ((mask << 1) + (cons ? 1 : 0)) & 0xff;
  }
  return (mask & 7) === 5;
}
/** *v*: FTS5 counts a `y` after the first letter as a vowel whatever precedes it. */
function hasVowel(b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(b[i], i > 0)) return true;
  return false;
}
const mGt1SorT = (b: Uint8Array, n: number) => (b[n - 1] === S || b[n - 1] === T) && mGt1(b, n);

type Cond = (b: Uint8Array, n: number) => boolean;
/** [suffix, condition on the stem, replacement], grouped by the suffix's second-to-last letter. */
type Rule = [string, Cond, string];

function rules(list: Rule[]): Map<number, Rule[]> {
  const by = new Map<number, Rule[]>();
  for (const r of list) {
    const key = r[0].charCodeAt(r[0].length - 2);
    by.set(key, [...by.get(key) ?? [], r]);
  }
  return by;
}

const STEP2 = rules([
  ["ational", mGt0, "ate"],
  ["tional", mGt0, "tion"],
  ["enci", mGt0, "ence"],
  ["anci", mGt0, "ance"],
  ["izer", mGt0, "ize"],
  ["logi", mGt0, "log"],
  ["bli", mGt0, "ble"],
  ["alli", mGt0, "al"],
  ["entli", mGt0, "ent"],
  ["eli", mGt0, "e"],
  ["ousli", mGt0, "ous"],
  ["ization", mGt0, "ize"],
  ["ation", mGt0, "ate"],
  ["ator", mGt0, "ate"],
  ["alism", mGt0, "al"],
  ["iveness", mGt0, "ive"],
  ["fulness", mGt0, "ful"],
  ["ousness", mGt0, "ous"],
  ["aliti", mGt0, "al"],
  ["iviti", mGt0, "ive"],
  ["biliti", mGt0, "ble"],
]);
const STEP3 = rules([
  ["ical", mGt0, "ic"],
  ["ness", mGt0, ""],
  ["icate", mGt0, "ic"],
  ["iciti", mGt0, "ic"],
  ["ful", mGt0, ""],
  ["ative", mGt0, ""],
  ["alize", mGt0, "al"],
]);
const STEP4 = rules([
  ["al", mGt1, ""],
  ["ance", mGt1, ""],
  ["ence", mGt1, ""],
  ["er", mGt1, ""],
  ["ic", mGt1, ""],
  ["able", mGt1, ""],
  ["ible", mGt1, ""],
  ["ant", mGt1, ""],
  ["ement", mGt1, ""],
  ["ment", mGt1, ""],
  ["ent", mGt1, ""],
  ["ion", mGt1SorT, ""],
  ["ou", mGt1, ""],
  ["ism", mGt1, ""],
  ["ate", mGt1, ""],
  ["iti", mGt1, ""],
  ["ous", mGt1, ""],
  ["ive", mGt1, ""],
  ["ize", mGt1, ""],
]);

function endsWith(b: Uint8Array, n: number, suffix: string): boolean {
  if (n <= suffix.length) return false; // FTS5 asks for a non-empty stem
  for (let i = 0; i < suffix.length; i++) {
    if (b[n - suffix.length + i] !== suffix.charCodeAt(i)) return false;
  }
  return true;
}

/** Applies the first rule whose suffix matches (its condition may still refuse); the new length. */
function step(b: Uint8Array, n: number, by: Map<number, Rule[]>): number {
  for (const [suffix, cond, repl] of by.get(b[n - 2]) ?? []) {
    if (!endsWith(b, n, suffix)) continue;
    const stem = n - suffix.length;
    if (!cond(b, stem)) return n;
    for (let i = 0; i < repl.length; i++) b[stem + i] = repl.charCodeAt(i);
    return stem + repl.length;
  }
  return n;
}

/** Step 1b: eed→ee (m>0); ed, ing dropped after a vowel, then tidied. */
function step1b(b: Uint8Array, n: number): number {
  let cut = -1;
  if (b[n - 2] === E) {
    if (endsWith(b, n, "eed")) {
      if (mGt0(b, n - 3)) return n - 1;
      return n;
    }
    if (endsWith(b, n, "ed") && hasVowel(b, n - 2)) cut = n - 2;
  } else if (b[n - 2] === 110 && endsWith(b, n, "ing") && hasVowel(b, n - 3)) cut = n - 3;
  if (cut < 0) return n;
  n = cut;
  for (const [end, add] of [["at", "ate"], ["bl", "ble"], ["iz", "ize"]]) {
    if (endsWith(b, n, end)) {
      b[n] = add.charCodeAt(2);
      return n + 1;
    }
  }
  const c = b[n - 1];
  if (!isVowel(c, false) && c !== L && c !== S && c !== Z && c === b[n - 2]) return n - 1;
  if (mEq1(b, n) && oStar(b, n)) {
    b[n] = E;
    return n + 1;
  }
  return n;
}

/** Stems one token as FTS5's porter tokenizer does (the token as unicode61 emits it). */
export function porterStem(word: string): string {
  const bytes = encoder.encode(word);
  if (bytes.length < 3 || bytes.length > MAX_TOKEN) return word;
  const b = new Uint8Array(bytes.length + 1); // room for a letter step 1b adds
  b.set(bytes);
  let n = bytes.length;
  // Step 1a.
  if (b[n - 1] === S) {
    if (b[n - 2] === E) {
      n = (n > 4 && b[n - 4] === S && b[n - 3] === S) || (n > 3 && b[n - 3] === I) ? n - 2 : n - 1;
    } else if (b[n - 2] !== S) n--;
  }
  n = step1b(b, n);
  // Step 1c.
  if (b[n - 1] === Y && hasVowel(b, n - 1)) b[n - 1] = I;
  n = step(b, n, STEP2);
  n = step(b, n, STEP3);
  n = step(b, n, STEP4);
  // Step 5a.
  if (b[n - 1] === E && (mGt1(b, n - 1) || (mEq1(b, n - 1) && !oStar(b, n - 1)))) n--;
  // Step 5b.
  if (n > 1 && b[n - 1] === L && b[n - 2] === L && mGt1(b, n - 1)) n--;
  return n === bytes.length && b.subarray(0, n).every((c, i) => c === bytes[i])
    ? word
    : decoder.decode(b.subarray(0, n));
}
