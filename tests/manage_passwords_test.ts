import assert from "node:assert/strict";
import {
  hashPassword,
  PBKDF2_ITERATIONS,
  verifyPassword,
} from "../server/domain/accounts/passwords.ts";

Deno.test("hashPassword() salts every hash and verifyPassword() accepts only the password", async () => {
  const a = await hashPassword("correct horse battery");
  const b = await hashPassword("correct horse battery");
  assert.notEqual(a, b);
  assert.ok(PBKDF2_ITERATIONS >= 600_000);
  assert.ok(a.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`));
  assert.equal(await verifyPassword("correct horse battery", a), true);
  assert.equal(await verifyPassword("correct horse batterY", a), false);
  assert.equal(await verifyPassword("", a), false);
});

Deno.test("verifyPassword() refuses tampered and unreadable hashes", async () => {
  const stored = await hashPassword("correct horse battery");
  const [scheme, iterations, salt, hash] = stored.split("$");
  const flipped = hash.slice(0, -1) + (hash.endsWith("A") ? "B" : "A");
  for (
    const bad of [
      `${scheme}$${iterations}$${salt}$${flipped}`,
      `${scheme}$1000$${salt}$${hash}`,
      `md5$${iterations}$${salt}$${hash}`,
      `${scheme}$0$${salt}$${hash}`,
      "",
      "plaintext",
      `${scheme}$${iterations}$!!$${hash}`,
    ]
  ) {
    assert.equal(await verifyPassword("correct horse battery", bad), false, bad);
  }
});

Deno.test("verifyPassword() treats Unicode-equivalent passwords as the same (NFKC)", async () => {
  const stored = await hashPassword("caf\u00e9 au lait!!");
  assert.equal(await verifyPassword("cafe\u0301 au lait!!", stored), true);
});
