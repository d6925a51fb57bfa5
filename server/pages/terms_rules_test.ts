import assert from "node:assert/strict";
import type { ContentRule } from "../../store/vocabulary.ts";
import { ruleSentences } from "./terms_rules.ts";

Deno.test("an embargo of one hour is said in the singular, of more in the plural", () => {
  const rule = (hours: number): ContentRule => ({
    id: `r${hours}`,
    priority: hours,
    match: { publishedWithinHours: hours },
    action: { policy: "BLOCKED" },
  });
  const [one, many] = ruleSentences([rule(1), rule(48)], new Date("2026-11-27T00:00:00Z"));
  assert.match(one, /published less than 1 hour ago:/);
  assert.match(many, /published less than 48 hours ago:/);
});
