/**
 * GET /api/publisher/gate/config (issue 33): configuration for the publisher's verified domain,
 * per proxy and per fail-safe choice, documented in the OpenAPI document; bad input is refused.
 * The nginx and Caddy tests (gate_nginx_test.ts, gate_caddy_test.ts) run what it returns.
 */
import assert from "node:assert/strict";
import { patchDemo } from "./fixtures/demo.ts";
import { json, testFolio } from "./helpers.ts";
import { HOST } from "./landing_helpers.ts";
import { bearer } from "./manage_helpers.ts";

interface GateConfig {
  domain: string;
  whenDown: string;
  originUrl: string;
  endpoints: { nginx: string; forwardAuth: string };
  nginx: { file: string; config: string; whenFolioDown: string };
  caddy: { file: string; config: string; whenFolioDown: string };
  traefik: { file: string; config: string; whenFolioDown: string };
  reverseProxy: { originUrl: string | null; enabled: boolean; steps: string[] };
}

Deno.test("gate config: nginx, Caddy and Traefik for the verified domain, with the fail-safe chosen", async () => {
  await using folio = await testFolio();
  const auth = { headers: bearer(folio.seeded!.apiKey) };
  const res = await folio.request("/api/publisher/gate/config?origin=http://10.0.0.5:8080", auth);
  assert.equal(res.status, 200);
  const got = await json<GateConfig>(res);
  assert.equal(got.domain, HOST);
  assert.equal(got.whenDown, "refuse-crawlers");
  assert.equal(got.originUrl, "http://10.0.0.5:8080");
  assert.equal(got.endpoints.nginx, `${folio.url}/api/gate/v1/nginx`);
  assert.match(got.nginx.config, new RegExp(`server_name ${HOST};`));
  assert.match(got.nginx.config, /auth_request \/_folio_gate;/);
  assert.match(got.nginx.config, /proxy_pass http:\/\/10\.0\.0\.5:8080;/);
  assert.match(got.nginx.config, /return 503 "The crawler gate/);
  assert.match(got.nginx.whenFolioDown, /503/);
  assert.match(got.caddy.config, new RegExp(`^${HOST} \\{`, "m"));
  assert.match(got.caddy.config, /rewrite \/api\/gate\/v1\/forward-auth/);
  assert.match(got.traefik.config, /forwardAuth:/);
  assert.match(got.traefik.config, /GPTBot/);
  assert.ok(got.traefik.whenFolioDown);
  assert.deepEqual([got.reverseProxy.originUrl, got.reverseProxy.enabled], [null, false]);

  const open = await json<GateConfig>(
    await folio.request("/api/publisher/gate/config?whenDown=open", auth),
  );
  assert.equal(open.originUrl, "http://127.0.0.1:8080", "an example origin when none is set");
  // Open: only license.xml is refused while Folio is down (issue 40), never a page.
  assert.doesNotMatch(open.nginx.config, /return 503 "The crawler gate/);
  assert.doesNotMatch(open.caddy.config, /respond "The crawler gate.*503/);
  for (const config of [open.nginx.config, open.caddy.config]) {
    assert.match(config, /The license server is unavailable: retry later\./);
  }
  assert.match(open.nginx.whenFolioDown, /every request/);
});

Deno.test("gate config: bad input, no credential and an unverified domain are refused", async () => {
  await using folio = await testFolio();
  const auth = { headers: bearer(folio.seeded!.apiKey) };
  for (
    const [query, param] of [
      ["whenDown=sometimes", "whenDown"],
      ["origin=ftp://x.example", "origin"],
      ["origin=http://x.example/blog", "origin"],
      ["nope=1", "nope"],
    ]
  ) {
    const res = await folio.request(`/api/publisher/gate/config?${query}`, auth);
    assert.equal(res.status, 400, query);
    assert.equal((await json<{ error: { param: string } }>(res)).error.param, param, query);
  }
  const anonymous = await folio.request("/api/publisher/gate/config");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();

  await patchDemo(folio, (p) => ({ ...p, customDomain: null }));
  const none = await folio.request("/api/publisher/gate/config", auth);
  assert.equal(none.status, 409);
  assert.equal((await json<{ error: { code: string } }>(none)).error.code, "domain_not_verified");
});
