import assert from "node:assert/strict";
import { BoundedCache } from "./bounded_cache.ts";

Deno.test("a bounded cache drops the entry set longest ago when a new key finds it full", () => {
  const c = new BoundedCache<string, number>(2);
  c.set("a", 1).set("b", 2);
  c.get("a"); // a read does not count by default
  c.set("c", 3);
  assert.deepEqual([c.has("a"), c.has("b"), c.has("c")], [false, true, true]);
  c.set("b", 20); // setting a kept key refreshes it and drops nothing
  c.set("d", 4);
  assert.deepEqual([c.has("c"), c.get("b"), c.get("d"), c.size], [false, 20, 4, 2]);
});

Deno.test("with recency 'use', a read keeps an entry (least recently used goes first)", () => {
  const c = new BoundedCache<string, number>(2, { recency: "use" });
  c.set("a", 1).set("b", 2);
  assert.equal(c.get("a"), 1);
  c.set("c", 3);
  assert.deepEqual([c.has("a"), c.has("b"), c.has("c")], [true, false, true]);
  assert.equal(c.get("missing"), undefined);
  assert.deepEqual([...c.values()], [1, 3]);
});

Deno.test("with drop 'all', a full cache starts over for a new key", () => {
  const c = new BoundedCache<number, string>(3, { drop: "all" });
  for (const n of [1, 2, 3]) c.set(n, `${n}`);
  c.set(2, "two");
  assert.equal(c.size, 3);
  c.set(4, "4");
  assert.deepEqual([c.size, c.get(4), c.has(1)], [1, "4", false]);
  assert.equal(c.delete(4), true);
  c.set(5, "5");
  c.clear();
  assert.equal(c.size, 0);
});

Deno.test("a bounded cache refuses a ceiling below one entry", () => {
  for (const max of [0, -1, 1.5, NaN]) {
    assert.throws(() => new BoundedCache(max), RangeError);
  }
});
