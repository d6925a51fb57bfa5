import assert from "node:assert/strict";
import {
  itemKindInWords,
  licenseKindInWords,
  noun,
  plural,
  surfaceInWords,
  surfacesInWords,
  useInWords,
  usesInWords,
} from "./words.ts";
import { SURFACES, USE_CASES } from "../../store/vocabulary.ts";

Deno.test("plural: singular for exactly one, plural for zero, many and fractions", () => {
  assert.equal(plural(1, "article"), "1 article");
  assert.equal(plural(2, "article"), "2 articles");
  assert.equal(plural(0, "article"), "0 articles");
  assert.equal(plural(1.5, "hour"), "1.5 hours");
  assert.equal(plural(1, "query", { plural: "queries" }), "1 query");
  assert.equal(plural(4, "query", { plural: "queries" }), "4 queries");
  assert.equal(plural(1200, "call", { shown: "1,200" }), "1,200 calls");
  assert.equal(noun(1, "time"), "time");
  assert.equal(noun(3, "time"), "times");
});

Deno.test("the API's codes in a person's words: every use and surface has its words", () => {
  assert.equal(
    usesInWords(["summarization", "display", "fine_tuning"]),
    "summaries, full display and fine-tuning",
  );
  assert.equal(useInWords("rag"), "RAG retrieval");
  assert.equal(surfaceInWords("a2a"), "Agent to agent (A2A)");
  assert.equal(surfaceInWords("dashboard"), "Console");
  assert.equal(surfacesInWords(["rest", "mcp", "landing"]), "REST API, MCP and Publisher pages");
  assert.equal(itemKindInWords("subscription"), "license fee");
  assert.equal(licenseKindInWords("request"), "accepted offer");
  // A code added to a list without words would show as itself: every one has its own.
  for (const s of SURFACES) assert.notEqual(surfaceInWords(s), s, s);
  for (const u of USE_CASES) assert.notEqual(useInWords(u), u, u);
});
