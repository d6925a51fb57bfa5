/**
 * Custom domain claims, the edges: invalid names, trusted names, a private address behind the
 * domain (the guarded fetcher refuses it), failed lookups, the verify limit, the system resolver.
 */
import assert from "node:assert/strict";
import { json, testFolio } from "./helpers.ts";
import { assertInvalid, signUp } from "./manage_helpers.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { resolveTxtSystem } from "../server/domain/catalog/dns.ts";
import { loopbackFetcher } from "./fixtures/gated_site.ts";
import {
  claim,
  type Doc,
  DOMAIN,
  noHttp,
  served,
  settings,
  txt,
  verify,
} from "./domain_helpers.ts";

Deno.test("invalid domains are refused and change nothing; verify without a claim is 409", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "http://platform.org" } });
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const before = await settings(folio, apiKey);
  const hostName = "customDomain: must be a host name such as news.example.com";
  for (const bad of ["not a host", "10.0.0.1", "[::1]", "http://news.acme.org", "a..org", ""]) {
    await assertInvalid(await claim(folio, apiKey, bad), hostName);
  }
  await assertInvalid(
    await claim(folio, apiKey, "Platform.org"),
    "customDomain: is the platform's own host name",
  );
  assert.deepEqual(await settings(folio, apiKey), before);
  const none = await verify(folio, apiKey);
  assert.equal(none.status, 409);
  assert.equal(
    (await json<Doc>(none)).error.message,
    "customDomain: there is no domain waiting for proof; set customDomain first",
  );
});

Deno.test("a trusted name is verified on claim without a lookup (tests trust .test)", async () => {
  await using folio = await testFolio();
  const asked = txt(folio, {});
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const doc = await json<Doc>(await claim(folio, apiKey, "news.acme.test"));
  assert.equal(doc.domain.status, "verified");
  assert.equal(
    doc.domain.message,
    "Verified on 2026-11-15 by this server's FOLIO_TRUSTED_DOMAINS.",
  );
  assert.deepEqual(asked, []);
  assert.equal(await served(folio, "news.acme.test"), 200);
  // The demo's domain, seeded by the operator, is verified and routes.
  const demo = await settings(folio, folio.seeded!.apiKey);
  assert.equal(demo.domain.status, "verified");
  assert.equal(await served(folio, "demo.localhost"), 200);
});

Deno.test("the HTTP token is never fetched from a private address; a failed lookup is said so", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const url = (await json<Doc>(await claim(folio, apiKey, DOMAIN))).domain.httpToken.url;
  folio.deps.resolveTxt = () => Promise.reject(new Error("SERVFAIL"));
  // The production guard (no loopback switch): the domain points inside the network.
  folio.deps.fetcher = createFetcher({
    userAgent: "FolioTest/1",
    retries: 0,
    resolve: () => Promise.resolve(["10.0.0.7"]),
    dial: () => Promise.reject(new Error("the guard must refuse before dialling")),
  });
  const doc = await json<Doc>(await verify(folio, apiKey));
  assert.equal(doc.domain.status, "pending");
  assert.match(
    doc.domain.message,
    new RegExp(
      `^Not verified yet: _folio-challenge\\.${DOMAIN} could not be looked up \\(SERVFAIL\\); `,
    ),
  );
  assert.ok(doc.domain.message.includes(`${url} could not be fetched (`), doc.domain.message);
  assert.match(doc.domain.message, /10\.0\.0\.7/);
  assert.equal(await served(folio), 404);
});

Deno.test("verify now is limited to 30 checks an hour per publisher", async () => {
  await using folio = await testFolio();
  noHttp(folio);
  txt(folio, {});
  const { apiKey } = await signUp(folio, { slug: "acme" });
  await claim(folio, apiKey, DOMAIN);
  for (let i = 0; i < 30; i++) assert.equal((await verify(folio, apiKey)).status, 200);
  const limited = await verify(folio, apiKey);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  await limited.body?.cancel();
  folio.clock.advance(60 * 60_000);
  assert.equal((await verify(folio, apiKey)).status, 200);
});

Deno.test("the system TXT resolver never asks DNS about localhost names", async () => {
  assert.deepEqual(await resolveTxtSystem("_folio-challenge.demo.localhost"), []);
  assert.deepEqual(await resolveTxtSystem("localhost."), []);
});

Deno.test("an HTTP token found only after a redirect to another host does not prove the domain", async () => {
  await using folio = await testFolio();
  txt(folio, {});
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const { body } = (await json<Doc>(await claim(folio, apiKey, DOMAIN))).domain.httpToken;
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.headers.get("host")?.startsWith(DOMAIN)) {
      return Response.redirect(`http://attacker.org${url.pathname}`, 302);
    }
    return new Response(body, { headers: { "content-type": "text/plain" } });
  });
  try {
    folio.deps.fetcher = loopbackFetcher({
      retries: 0,
      resolve: () => Promise.resolve(["127.0.0.1"]),
      dial: (address, { signal }) =>
        Deno.connect({ hostname: address, port: site.addr.port, signal }),
    });
    const doc = await json<Doc>(await verify(folio, apiKey));
    assert.equal(doc.domain.status, "pending");
    assert.match(doc.domain.message, /redirected to attacker\.org\.$/);
    assert.equal(await served(folio), 404);
  } finally {
    await site.shutdown();
  }
});
