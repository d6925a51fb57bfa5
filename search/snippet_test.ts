import * as assert from "node:assert/strict";
import catalog from "../server/seed/demo_catalog.json" with { type: "json" };
import { snippet, type Span, tokenSpans } from "./snippet.ts";
import { stem, words } from "./text.ts";

/** The straightforward definition the fast scan must agree with: a regex and a stem per token. */
function referenceSpans(flat: string, query: string): Span[] {
  const wanted = new Set(words(query).map(stem));
  return [...flat.matchAll(/\S+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    hit: words(m[0]).some((w) => wanted.has(stem(w))),
  }));
}

/** The fast spans and the reference spans of `text` for `query`. */
function spansOf(text: string, query: string): [Span[], Span[]] {
  const flat = text.replace(/\s+/g, " ").trim();
  return [tokenSpans(flat, new Set(words(query).map(stem))), referenceSpans(flat, query)];
}

Deno.test("token spans agree with the per-token definition on every demo article and query", () => {
  const queries = [
    "heat pumps",
    "Coral REEFS bleaching",
    "city cycling lanes",
    "sleep",
    "copyright law",
    "batteries",
    "the of and",
    "running runners ran",
    "2024 budget",
    "happiness",
  ];
  let compared = 0;
  for (const { body } of catalog as { body: string }[]) {
    for (const q of queries) {
      const [fast, slow] = spansOf(body, q);
      assert.deepEqual(fast, slow, `query ${q}`);
      compared++;
    }
  }
  assert.ok(compared > 100);
});

Deno.test("snippets hold the query's words, in ASCII and accented text alike", () => {
  const filler = "lorem ipsum dolor sit amet ".repeat(30);
  const ascii = `${filler}Heat-pumps, installed early, warm homes cheaply. ${filler}`;
  assert.match(snippet(ascii, "heat pump"), /^….*Heat-pumps,…$/);
  assert.deepEqual(...spansOf(ascii, "heat pump"));
  const accented = `${filler}Le café crème de Zoë est célèbre. ${filler}`;
  assert.match(snippet(accented, "cafe celebre"), /café crème de Zoë est célèbre/);
  assert.deepEqual(...spansOf(accented, "cafe"));
});
