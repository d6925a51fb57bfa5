import assert from "node:assert/strict";
import { hashSecret, hint, newSecret, wellFormed } from "./secrets.ts";

Deno.test("newSecret() makes keys of the documented shape that pass their own checksum", () => {
  const key = newSecret("mk");
  assert.match(key, /^mk_[0-9A-Za-z]{38}$/);
  assert.ok(wellFormed(key, "mk"));
  assert.ok(!wellFormed(key, "pk"));
});

Deno.test("wellFormed() rejects a key with one character changed, before any lookup", () => {
  const key = newSecret("mk");
  let rejected = 0;
  for (let i = 3; i < key.length; i++) {
    const c = key[i] === "a" ? "b" : "a";
    if (!wellFormed(key.slice(0, i) + c + key.slice(i + 1), "mk")) rejected++;
  }
  assert.equal(rejected, key.length - 3);
});

Deno.test("wellFormed() rejects 10,000 random mk_ strings", () => {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let accepted = 0;
  for (let n = 0; n < 10_000; n++) {
    let s = "mk_";
    for (let i = 0; i < 38; i++) s += alphabet[Math.floor(Math.random() * 62)];
    if (wellFormed(s, "mk")) accepted++;
  }
  // A 6-character base62 checksum lets about 1 in 5.7e10 through.
  assert.equal(accepted, 0);
});

Deno.test("10,000 secrets have no duplicates and hashes hide them", async () => {
  const keys = new Set(Array.from({ length: 10_000 }, () => newSecret("mk")));
  assert.equal(keys.size, 10_000);
  const key = [...keys][0];
  const hash = await hashSecret(key);
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.ok(!hash.includes(key.slice(3, 10)));
  assert.equal(hint(key), `mk_…${key.slice(-4)}`);
});
