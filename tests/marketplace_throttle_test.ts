import assert from "node:assert/strict";
import { SIGNUP_LIMIT } from "../server/surfaces/marketplace/account_routes.ts";
import { json, testFolio } from "./helpers.ts";

Deno.test("buyer sign-ups are limited per address with 429 and Retry-After, then allowed again", async () => {
  await using folio = await testFolio();
  const signup = (i: number) =>
    folio.request("/api/marketplace/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `Buyer ${i}`, email: `b${i}@example.test` }),
    });
  for (let i = 0; i < SIGNUP_LIMIT.limit; i++) {
    const res = await signup(i);
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
  const refused = await signup(999);
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
  assert.equal((await json<{ error: { code: string } }>(refused)).error.code, "rate_limited");
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers");
  assert.equal(Number(rs.rows[0].n), SIGNUP_LIMIT.limit);
  folio.clock.advance(SIGNUP_LIMIT.windowMs);
  const again = await signup(1000);
  assert.equal(again.status, 201);
  await again.body?.cancel();
});
