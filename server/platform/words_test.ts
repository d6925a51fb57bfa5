import assert from "node:assert/strict";
import { noun, plural } from "./words.ts";

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
