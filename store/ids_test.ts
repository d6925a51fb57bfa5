import assert from "node:assert/strict";
import { newId, newTimeOrderedId } from "./ids.ts";

Deno.test("time-ordered ids sort by their time, then are unique within a millisecond", () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 15) + ms);
  const ids = [0, 1, 1, 1, 999, 86_400_000, 365 * 86_400_000].map((ms) =>
    newTimeOrderedId("chg", at(ms))
  );
  for (const id of ids) assert.match(id, /^chg_[0-9a-hjkmnp-tv-z]{26}$/);
  for (let i = 1; i < ids.length; i++) {
    const [a, b] = [ids[i - 1].slice(0, 14), ids[i].slice(0, 14)];
    assert.ok(a <= b, `${ids[i - 1]} sorts after ${ids[i]}`);
  }
  assert.equal(new Set(ids).size, ids.length);
  // The time prefix of the epoch and of 10,889 AD (2^48 ms) still fits its ten characters.
  assert.equal(newTimeOrderedId("x", new Date(0)).slice(2, 12), "0000000000");
  assert.equal(newTimeOrderedId("x", new Date(2 ** 48)).length, 2 + 26);
  assert.match(newId("pub"), /^pub_[0-9a-hjkmnp-tv-z]{16}$/);
});
