/** Snippets: about 240 characters of a passage around the words that best match a query. */
import { stem, words } from "./text.ts";

/** Target snippet length in characters (SPEC "Search result match"). */
export const SNIPPET_CHARS = 240;

/** The window of `text` holding the most query terms, cut at word boundaries, with ellipses. */
export function snippet(text: string, query: string, options: { chars?: number } = {}): string {
  const size = options.chars ?? SNIPPET_CHARS;
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= size) return flat;
  const wanted = new Set(words(query).map(stem));
  const spans: { start: number; end: number; hit: boolean }[] = [];
  for (const m of flat.matchAll(/\S+/g)) {
    const hit = words(m[0]).some((w) => wanted.has(stem(w)));
    spans.push({ start: m.index!, end: m.index! + m[0].length, hit });
  }
  // Slide a window of whole words no longer than `size`; keep the one with the most hits.
  let best = { from: 0, hits: -1 };
  let hits = 0;
  let to = 0;
  for (let from = 0; from < spans.length; from++) {
    while (to < spans.length && spans[to].end - spans[from].start <= size) {
      if (spans[to].hit) hits++;
      to++;
    }
    if (hits > best.hits) best = { from, hits };
    if (to === from) to++;
    else if (spans[from].hit) hits--;
  }
  let last = best.from;
  while (last + 1 < spans.length && spans[last + 1].end - spans[best.from].start <= size) last++;
  const body = flat.slice(spans[best.from].start, spans[last].end);
  return `${best.from > 0 ? "…" : ""}${body}${last < spans.length - 1 ? "…" : ""}`;
}
