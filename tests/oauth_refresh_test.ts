/** docs/TEST-PLAN.md section 1, cases 25-31: refresh token rotation, reuse detection and revocation. */
import assert from "node:assert/strict";
import { revokeClient, revokeClientGrants } from "../store/oauth.ts";
import { testFolio } from "./helpers.ts";
import type { TestFolio } from "./helpers.ts";
import { accessWorks, addPublisherB, fullFlow, resourceOf, token } from "./oauth_helpers.ts";

const DAY = 24 * 60 * 60_000;

function refreshWith(
  folio: TestFolio,
  clientId: string,
  rt: string,
  extra: Record<string, string> = {},
) {
  return token(folio, {
    grant_type: "refresh_token",
    refresh_token: rt,
    client_id: clientId,
    ...extra,
  });
}

function assertError(
  res: { status: number; body: Record<string, unknown> },
  error = "invalid_grant",
) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error, error);
}

Deno.test("oauth 1.25: refreshing with RT1 gives RT2 and a new access token, and consumes RT1", async () => {
  await using folio = await testFolio();
  const { clientId, refresh: rt1, access: at1 } = await fullFlow(folio);
  const res = await refreshWith(folio, clientId, rt1);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.notEqual(res.body.refresh_token, rt1);
  assert.notEqual(res.body.access_token, at1);
  assert.equal(res.body.expires_in, 3600);
  assert.equal(await accessWorks(folio, String(res.body.access_token)), true);
  assert.equal(
    await accessWorks(folio, at1),
    true,
    "rotation alone does not revoke the old access token",
  );
});

Deno.test("oauth 1.26: presenting a rotated refresh token revokes the whole family", async () => {
  await using folio = await testFolio();
  const { clientId, refresh: rt1, access: at1 } = await fullFlow(folio);
  const second = await refreshWith(folio, clientId, rt1);
  const rt2 = String(second.body.refresh_token);
  const at2 = String(second.body.access_token);
  assertError(await refreshWith(folio, clientId, rt1));
  assertError(await refreshWith(folio, clientId, rt2));
  assert.equal(await accessWorks(folio, at2), false);
  assert.equal(await accessWorks(folio, at1), false);
});

Deno.test("oauth 1.27: of K concurrent refreshes exactly one wins and the family is revoked (no grace window)", async () => {
  await using folio = await testFolio();
  const runs = 10;
  let familyRevoked = 0;
  for (let r = 0; r < runs; r++) {
    folio.clock.advance(61_000);
    const k = 2 + (r % 5);
    const { clientId, refresh: rt } = await fullFlow(folio);
    const results = await Promise.all(
      Array.from({ length: k }, () => refreshWith(folio, clientId, rt)),
    );
    const wins = results.filter((x) => x.status === 200);
    assert.equal(wins.length, 1, `run ${r}: ${results.map((x) => x.status)}`);
    for (const lose of results.filter((x) => x.status !== 200)) assertError(lose);
    const winnerAccess = await accessWorks(folio, String(wins[0].body.access_token));
    const winnerRefresh = await refreshWith(folio, clientId, String(wins[0].body.refresh_token));
    if (!winnerAccess && winnerRefresh.status === 400) familyRevoked++;
  }
  assert.equal(familyRevoked, runs);
  console.log(
    `refresh race: 2-6 concurrent refreshes x ${runs} runs: exactly 1 success; family revoked ${familyRevoked}/${runs}`,
  );
});

Deno.test("oauth 1.28: refresh may narrow the scope but not widen it or change the resource", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const { clientId, refresh: rt } = await fullFlow(folio);
  assertError(await refreshWith(folio, clientId, rt, { scope: "mcp admin" }), "invalid_scope");
  assertError(
    await refreshWith(folio, clientId, rt, { resource: resourceOf(folio, "pub_b") }),
    "invalid_target",
  );
  // Refused requests do not consume the token; the same resource and scope are fine.
  const ok = await refreshWith(folio, clientId, rt, { scope: "mcp", resource: resourceOf(folio) });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.scope, "mcp");
});

Deno.test("oauth 1.29: a refresh token presented by another client gets invalid_grant", async () => {
  await using folio = await testFolio();
  const a = await fullFlow(folio);
  const b = await fullFlow(folio);
  assertError(await refreshWith(folio, b.clientId, a.refresh));
  assert.equal((await refreshWith(folio, a.clientId, a.refresh)).status, 200, "owner still can");
});

Deno.test("oauth 1.30: refresh tokens die 30 days after the grant even when rotated on day 29", async () => {
  await using folio = await testFolio();
  const { clientId, refresh: rt1 } = await fullFlow(folio);
  folio.clock.advance(29 * DAY);
  const day29 = await refreshWith(folio, clientId, rt1);
  assert.equal(day29.status, 200);
  assert.equal(day29.body.expires_in, 3600);
  folio.clock.advance(DAY - 30 * 60_000); // day 30 minus 30 minutes
  const late = await refreshWith(folio, clientId, String(day29.body.refresh_token));
  assert.equal(late.status, 200);
  assert.equal(late.body.expires_in, 1800, "the access token is clipped to the grant's end");
  folio.clock.advance(30 * 60_000 + 1000);
  assertError(await refreshWith(folio, clientId, String(late.body.refresh_token)));
  assert.equal(await accessWorks(folio, String(late.body.access_token)), false);
});

Deno.test("oauth access tokens expire after one hour", async () => {
  await using folio = await testFolio();
  const { access } = await fullFlow(folio);
  folio.clock.advance(3600_000 - 1000);
  assert.equal(await accessWorks(folio, access), true);
  folio.clock.advance(1000);
  assert.equal(await accessWorks(folio, access), false);
});

Deno.test("oauth 1.31: revoking a client's grants for a publisher kills its tokens at once", async () => {
  await using folio = await testFolio();
  const { clientId, refresh, access } = await fullFlow(folio);
  const n = await revokeClientGrants(folio.deps.store.db, "pub_demo", clientId, folio.clock.now());
  assert.equal(n, 2);
  assert.equal(await accessWorks(folio, access), false); // N = 0 s: looked up on every request
  assertError(await refreshWith(folio, clientId, refresh));
});

Deno.test("oauth 1.31: revoking a grant for another publisher leaves this one alone", async () => {
  await using folio = await testFolio();
  await addPublisherB(folio);
  const { clientId, access } = await fullFlow(folio);
  assert.equal(
    await revokeClientGrants(folio.deps.store.db, "pub_b", clientId, folio.clock.now()),
    0,
  );
  assert.equal(await accessWorks(folio, access), true);
});

Deno.test("oauth 1.31: a deleted client loses its tokens, registration and ability to authorize", async () => {
  await using folio = await testFolio();
  const { clientId, refresh, access } = await fullFlow(folio);
  await revokeClient(folio.deps.store.db, clientId, folio.clock.now());
  assert.equal(await accessWorks(folio, access), false);
  const res = await refreshWith(folio, clientId, refresh);
  assert.equal(res.status, 401);
  assert.equal(res.body.error, "invalid_client");
});
