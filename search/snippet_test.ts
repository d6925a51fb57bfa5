import * as assert from "node:assert/strict";
import catalog from "../server/seed/demo_catalog.json" with { type: "json" };
import { snippet } from "./snippet.ts";
import { stem, words } from "./text.ts";

/** The straightforward definition the fast scan must agree with: a regex and a stem per token. */
function reference(text: string, query: string, size = 240): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= size) return flat;
  const wanted = new Set(words(query).map(stem));
  const spans = [...flat.matchAll(/\S+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    hit: words(m[0]).some((w) => wanted.has(stem(w))),
  }));
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

Deno.test("snippets agree with the per-token definition on every demo article and query", () => {
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
      assert.equal(snippet(body, q), reference(body, q), `query ${q}`);
      compared++;
    }
  }
  assert.ok(compared > 100);
});

Deno.test("snippets hold the query's words, in ASCII and accented text alike", () => {
  const filler = "lorem ipsum dolor sit amet ".repeat(30);
  const ascii = `${filler}Heat-pumps, installed early, warm homes cheaply. ${filler}`;
  assert.match(snippet(ascii, "heat pump"), /^….*Heat-pumps,…$/);
  assert.equal(snippet(ascii, "heat pump"), reference(ascii, "heat pump"));
  const accented = `${filler}Le café crème de Zoë est célèbre. ${filler}`;
  assert.match(snippet(accented, "cafe celebre"), /café crème de Zoë est célèbre/);
  assert.equal(snippet(accented, "cafe"), reference(accented, "cafe"));
});
