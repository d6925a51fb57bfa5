/**
 * A custom domain is served only after its owner proves it (issue 28): pending claims do not
 * route; a DNS TXT record or an HTTP token fetched through the guarded fetcher verifies; the
 * first to prove a domain takes it from pending claimants. `.org` names here are not trusted
 * (tests trust only localhost, test and example: tests/helpers.ts).
 */
import assert from "node:assert/strict";
import { json, testFolio } from "./helpers.ts";
import { signUp } from "./manage_helpers.ts";
import { loopbackFetcher } from "./fixtures/gated_site.ts";
import { recheckPendingDomains } from "../server/surfaces/manage/domains.ts";
import {
  agentSurfaces,
  claim,
  type Doc,
  DOMAIN,
  noHttp,
  served,
  settings,
  siteTitle,
  txt,
  verify,
} from "./domain_helpers.ts";

Deno.test("a claimed domain is pending and not routed; the right TXT record verifies and routes it", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUp(folio, { slug: "acme" });
  noHttp(folio);
  const res = await claim(folio, apiKey, "News.Acme.org");
  assert.equal(res.status, 200);
  const pending = await json<Doc>(res);
  assert.equal(pending.customDomain, DOMAIN);
  assert.equal(pending.domain.status, "pending");
  assert.equal(pending.urls.host, null, "no host URL until verified");
  const { dnsRecord, httpToken } = pending.domain;
  assert.equal(dnsRecord.name, `_folio-challenge.${DOMAIN}`);
  assert.equal(dnsRecord.type, "TXT");
  assert.match(dnsRecord.value, /^folio-verify=[A-Za-z0-9]{24}$/);
  assert.match(httpToken.url, /^http:\/\/news\.acme\.org\/\.well-known\/folio-verification\//);
  assert.equal(httpToken.body, dnsRecord.value);
  assert.match(pending.domain.message, new RegExp(`add a TXT record _folio-challenge\\.${DOMAIN}`));
  assert.equal(await served(folio), 404, "a pending claim is not the publisher's host");
  assert.equal(await siteTitle(folio), "Folio", "nor its site: the platform's page");
  assert.deepEqual(await agentSurfaces(folio), [404, 404], "nor its A2A card and MCP server");

  // The wrong token: still pending, and the sentence says what was found.
  const asked = txt(folio, { [dnsRecord.name]: ["folio-verify=someone-else", "v=spf1 -all"] });
  const wrong = await json<Doc>(await verify(folio, apiKey));
  assert.deepEqual(asked, [dnsRecord.name]);
  assert.equal(wrong.domain.status, "pending");
  assert.equal(
    wrong.domain.message,
    `Not verified yet: ${dnsRecord.name} has TXT "folio-verify=someone-else", "v=spf1 -all", ` +
      `not "${dnsRecord.value}"; ${httpToken.url} could not be fetched (${DOMAIN} did not ` +
      "resolve).",
  );
  assert.equal(wrong.domain.checkedAt, "2026-11-15T12:00:00.000Z");
  assert.equal(await served(folio), 404);

  txt(folio, { [dnsRecord.name]: ["v=spf1 -all", dnsRecord.value] });
  const right = await json<Doc>(await verify(folio, apiKey));
  assert.equal(right.customDomain, DOMAIN);
  assert.equal(right.domain.status, "verified");
  assert.equal(right.domain.message, "Verified on 2026-11-15 by its DNS TXT record.");
  assert.equal(await served(folio), 200);
  assert.equal(await siteTitle(folio), "Publisher acme");
  assert.deepEqual(await agentSurfaces(folio), [200, 200]);
  assert.match((await settings(folio, apiKey)).urls.host, /^http:\/\/news\.acme\.org/);
  // Keeping the verified domain changes nothing; removing it stops routing.
  assert.equal((await json<Doc>(await claim(folio, apiKey, DOMAIN))).domain.status, "verified");
  assert.equal((await json<Doc>(await claim(folio, apiKey, null))).domain, null);
  assert.equal(await served(folio), 404);
});

Deno.test("the HTTP token verifies through the guarded fetcher; a wrong body stays pending", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUp(folio, { slug: "acme" });
  txt(folio, {});
  const pending = await json<Doc>(await claim(folio, apiKey, DOMAIN));
  const { url, body } = pending.domain.httpToken;
  let answer = "not the token";
  const paths: string[] = [];
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    paths.push(`${req.headers.get("host")}${new URL(req.url).pathname}`);
    return new Response(`${answer}\n`, { headers: { "content-type": "text/plain" } });
  });
  try {
    // The domain resolves to loopback (allowed only by the test fetcher), port 80 is the site's.
    folio.deps.fetcher = loopbackFetcher({
      retries: 0,
      resolve: (name) => Promise.resolve(name === DOMAIN ? ["127.0.0.1"] : []),
      dial: (address, { signal }) =>
        Deno.connect({ hostname: address, port: site.addr.port, signal }),
    });
    const wrong = await json<Doc>(await verify(folio, apiKey));
    assert.equal(wrong.domain.status, "pending");
    assert.match(wrong.domain.message, new RegExp(`answered "not the token", not "${body}"`));
    answer = body;
    const right = await json<Doc>(await verify(folio, apiKey));
    assert.equal(right.domain.status, "verified");
    assert.equal(right.domain.message, "Verified on 2026-11-15 by its HTTP token.");
    assert.deepEqual(paths, Array(2).fill(`${DOMAIN}${new URL(url).pathname}`));
    assert.equal(await served(folio), 200);
  } finally {
    await site.shutdown();
  }
});

Deno.test("a verified owner takes a domain an unverified claim sat on; the claimant is told why", async () => {
  await using folio = await testFolio();
  noHttp(folio);
  const squatter = await signUp(folio, { slug: "squatter" });
  const owner = await signUp(folio, { slug: "owner" });
  assert.equal((await claim(folio, squatter.apiKey, DOMAIN)).status, 200);
  const mine = await claim(folio, owner.apiKey, DOMAIN);
  assert.equal(mine.status, 200, "two pending claims on one domain may coexist");
  const record = (await json<Doc>(mine)).domain.dnsRecord;
  const theirs = (await settings(folio, squatter.apiKey)).domain.dnsRecord;
  assert.notEqual(record.value, theirs.value, "each claim has its own token");
  txt(folio, { [record.name]: [record.value] });

  // The squatter cannot pass with the owner's record: its own token is not there.
  assert.equal((await json<Doc>(await verify(folio, squatter.apiKey))).domain.status, "pending");
  assert.equal((await json<Doc>(await verify(folio, owner.apiKey))).domain.status, "verified");
  assert.equal(await served(folio), 200);
  const search = await folio.request("/api/v1/articles/search?q=solar", { host: DOMAIN });
  assert.equal(search.status, 200);
  await search.body?.cancel();

  const released = await settings(folio, squatter.apiKey);
  assert.equal(released.customDomain, null);
  assert.equal(released.domain.status, "released");
  assert.equal(
    released.domain.message,
    `Released on 2026-11-15: another publisher proved it owns ${DOMAIN} (its DNS TXT record); ` +
      "set a domain you control.",
  );
  const again = await verify(folio, squatter.apiKey);
  assert.equal(again.status, 409);
  assert.equal((await json<Doc>(again)).error.code, "no_domain_claim");

  // A second claimant cannot take the verified domain, and nothing of its settings changes.
  const late = await signUp(folio, { slug: "late" });
  const before = await settings(folio, late.apiKey);
  const taken = await claim(folio, late.apiKey, DOMAIN);
  assert.equal(taken.status, 409);
  assert.deepEqual((await json<Doc>(taken)).error, {
    code: "domain_taken",
    message: `customDomain: "${DOMAIN}" is already in use: another publisher has verified it`,
  });
  assert.deepEqual(await settings(folio, late.apiKey), before);
  assert.equal((await claim(folio, squatter.apiKey, DOMAIN)).status, 409);
});

Deno.test("the hourly re-check verifies a pending claim whose record appeared, under a lease", async () => {
  await using folio = await testFolio();
  noHttp(folio);
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const record = (await json<Doc>(await claim(folio, apiKey, DOMAIN))).domain.dnsRecord;
  const asked = txt(folio, {});
  const first = await recheckPendingDomains(folio.deps, { holder: "node-a" });
  assert.deepEqual(first, { ran: true, result: 1 });
  assert.equal((await settings(folio, apiKey)).domain.status, "pending");
  txt(folio, { [record.name]: [record.value] });
  await recheckPendingDomains(folio.deps, { holder: "node-a" });
  assert.equal((await settings(folio, apiKey)).domain.status, "verified");
  assert.equal(await served(folio), 200);
  assert.deepEqual(asked, [record.name]);
  // Nothing pending: the next round checks nothing.
  assert.deepEqual(await recheckPendingDomains(folio.deps, { holder: "node-a" }), {
    ran: true,
    result: 0,
  });
});

Deno.test("moving to a new domain keeps the proven one serving until the new one is proven", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUp(folio, { slug: "acme" });
  noHttp(folio);
  const first = await json<Doc>(await claim(folio, apiKey, DOMAIN));
  txt(folio, { [first.domain.dnsRecord.name]: [first.domain.dnsRecord.value] });
  assert.equal((await json<Doc>(await verify(folio, apiKey))).domain.status, "verified");

  const NEXT = "read.acme.org";
  const moving = await json<Doc>(await claim(folio, apiKey, NEXT));
  assert.equal(moving.customDomain, NEXT);
  assert.equal(moving.domain.status, "pending");
  assert.match(moving.domain.message, /Until then news\.acme\.org keeps serving\.$/);
  assert.equal(await served(folio), 200, "the proven domain still serves");
  assert.equal(await served(folio, NEXT), 404, "the new one does not yet");

  // Back to the domain it serves: verified as it was, no new proof asked.
  const back = await json<Doc>(await claim(folio, apiKey, DOMAIN));
  assert.equal(back.domain.status, "verified");
  assert.equal(back.domain.message, "Verified earlier; news.acme.org kept serving meanwhile.");
  assert.equal(await served(folio), 200);

  // Proving the new domain moves the route to it.
  const again = await json<Doc>(await claim(folio, apiKey, NEXT));
  txt(folio, { [again.domain.dnsRecord.name]: [again.domain.dnsRecord.value] });
  assert.equal((await json<Doc>(await verify(folio, apiKey))).domain.status, "verified");
  assert.equal(await served(folio, NEXT), 200);
  assert.equal(await served(folio), 404, "the old domain is released");
});
