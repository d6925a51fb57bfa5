/**
 * docs/TEST-PLAN.md 5.10: the token and authorization endpoints are limited per address like
 * registration, login and sign-up: 429 with Retry-After in the endpoint's own error form.
 */
import assert from "node:assert/strict";
import { LIMITS } from "../server/surfaces/oauth/http.ts";
import { json, testFolio } from "./helpers.ts";

Deno.test("the token endpoint answers 429 too_many_requests past its per-address limit, then recovers", async () => {
  await using folio = await testFolio();
  const token = () =>
    folio.request("/api/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&client_id=nobody&code=x&code_verifier=y",
    });
  for (let i = 0; i < LIMITS.token.limit; i++) {
    const res = await token();
    assert.notEqual(res.status, 429, `request ${i + 1}`);
    await res.body?.cancel();
  }
  const refused = await token();
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
  assert.equal(refused.headers.get("access-control-allow-origin"), "*");
  assert.equal(refused.headers.get("cache-control"), "no-store");
  const body = await json<{ error: string; error_description: string }>(refused);
  assert.equal(body.error, "too_many_requests");
  assert.match(body.error_description, /^Too many attempts: try again in (1 second|\d+ seconds)$/);
  folio.clock.advance(LIMITS.token.windowMs);
  const again = await token();
  assert.equal(again.status, 401, "the next window is served again (and this client is unknown)");
  await again.body?.cancel();
});

Deno.test("the authorization page answers 429 temporarily_unavailable past its per-address limit", async () => {
  await using folio = await testFolio();
  const authorize = () => folio.request("/api/oauth/authorize?client_id=nobody");
  for (let i = 0; i < LIMITS.authorize.limit; i++) {
    const res = await authorize();
    assert.equal(res.status, 400, `request ${i + 1}`);
    await res.body?.cancel();
  }
  const refused = await authorize();
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
  assert.equal(refused.headers.get("x-frame-options"), "DENY");
  const page = await refused.text();
  assert.match(page, /temporarily_unavailable/);
  assert.match(page, /Too many attempts/);
});
