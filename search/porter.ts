/** The Porter (1980) stemmer, the same algorithm as SQLite FTS5's `porter` tokenizer. */

const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["abli", "able"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
];
const STEP3: [string, string][] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

function isCons(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isCons(w, i - 1); // y
  return true;
}

/** Number of vowel-consonant sequences in `s` (Porter's m). */
function measure(s: string): number {
  let m = 0;
  let i = 0;
  const n = s.length;
  while (i < n && isCons(s, i)) i++;
  while (i < n) {
    while (i < n && !isCons(s, i)) i++;
    if (i >= n) break;
    while (i < n && isCons(s, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isCons(s, i)) return true;
  return false;
}

function doubleCons(s: string): boolean {
  const n = s.length;
  return n >= 2 && s[n - 1] === s[n - 2] && isCons(s, n - 1);
}

function cvc(s: string): boolean {
  const n = s.length;
  if (n < 3 || !isCons(s, n - 3) || isCons(s, n - 2) || !isCons(s, n - 1)) return false;
  const c = s[n - 1];
  return c !== "w" && c !== "x" && c !== "y";
}

function replaceSuffix(w: string, rules: [string, string][]): string {
  for (const [suffix, repl] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return measure(stem) > 0 ? stem + repl : w;
  }
  return w;
}

/** Stems one lowercase ASCII word; other words are returned unchanged. */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1);

  let extra = false;
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
    else if (doubleCons(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && cvc(w)) w += "e";
  }
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = w.slice(0, -1) + "i";

  w = replaceSuffix(w, STEP2);
  w = replaceSuffix(w, STEP3);
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (measure(stem) > 1 && (suffix !== "ion" || /[st]$/.test(stem))) w = stem;
    break;
  }
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}
