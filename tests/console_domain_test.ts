/** The console's custom domain: the exact record to add, its state, and "Verify now" (CSRF). */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";
import { loopbackFetcher } from "./fixtures/gated_site.ts";

const DOMAIN = "news.harbor.org";

Deno.test("the console shows a pending domain's exact record, and Verify now checks it", async () => {
  await using folio = await testFolio();
  folio.deps.fetcher = loopbackFetcher({
    retries: 0,
    resolve: (name) => Promise.reject(new Error(`${name}: NXDOMAIN`)),
  });
  let records: string[] = [];
  folio.deps.resolveTxt = () => Promise.resolve(records);
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const saved = await visitor.post("/publisher/settings/domain", {
    _csrf: hidden(page.html),
    customDomain: DOMAIN,
  });
  assert.equal(saved.status, 200);
  const domainOf = async () =>
    (await (await folio.request("/api/publisher/settings", {
      headers: { authorization: `Bearer ${apiKey}` },
    })).json()).domain;
  const api = { domain: await domainOf() };
  const { dnsRecord, httpToken } = api.domain;
  const code = (what: string) => new RegExp(`data-record="${what}">([^<]*)<`).exec(saved.html)?.[1];
  assert.equal(code("name"), `_folio-challenge.${DOMAIN}`);
  assert.equal(code("value"), dnsRecord.value);
  assert.equal(code("url"), httpToken.url);
  const text = textOf(saved.html);
  assert.match(text, /Pending: not served until verified/);
  assert.doesNotMatch(
    saved.html,
    /href="http:\/\/news\.harbor\.org/,
    "no links to an unproven host",
  );

  const overview = textOf((await visitor.get("/publisher")).html);
  assert.match(overview, /Pending: add the TXT record shown in settings, then verify\./);

  // Verify now needs the session's CSRF token.
  const forged = await visitor.post("/publisher/settings/domain/verify", { _csrf: "forged" });
  assert.equal(forged.status, 403);
  assert.equal((await domainOf()).checkedAt, null, "no check ran");

  records = ["folio-verify=not-mine"];
  const still = await visitor.post("/publisher/settings/domain/verify", {
    _csrf: hidden(saved.html),
  });
  assert.equal(still.status, 200);
  assert.match(textOf(still.html), /Not verified yet: see what Folio found below/);
  assert.match(textOf(still.html), /has TXT "folio-verify=not-mine"/);

  records = [dnsRecord.value];
  const done = await visitor.post("/publisher/settings/domain/verify", {
    _csrf: hidden(still.html),
  });
  assert.match(textOf(done.html), /Domain verified: it serves your site now/);
  assert.match(textOf(done.html), /Verified: serving/);
  assert.doesNotMatch(done.html, /Verify now/);
  assert.match(done.html, /href="http:\/\/news\.harbor\.org(:\d+)?\/robots\.txt"/);
  assert.doesNotMatch(textOf((await visitor.get("/publisher")).html), /Pending: add the TXT/);
});

Deno.test("Verify now without a domain shows the API's sentence and changes nothing", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const res = await visitor.post("/publisher/settings/domain/verify", { _csrf: hidden(page.html) });
  assert.equal(res.status, 409);
  assert.match(textOf(res.html), /there is no domain waiting for proof; set customDomain first/);
});

Deno.test("the domain help names the configured port, and a CNAME only to a host name (issue 34)", async () => {
  {
    await using folio = await testFolio({ env: { PORT: "8123" } });
    const { visitor } = await consoleSignUp(folio);
    const text = textOf((await visitor.get("/publisher/settings")).html);
    assert.match(text, /reverse_proxy 127\.0\.0\.1:8123/);
    assert.doesNotMatch(text, /:8000/);
    assert.match(text, /a CNAME to localhost/);
  }
  {
    await using folio = await testFolio({ env: { FOLIO_BASE_URL: "http://203.0.113.7:8080" } });
    const { visitor } = await consoleSignUp(folio);
    const text = textOf((await visitor.get("/publisher/settings")).html);
    assert.match(text, /an A record \( ?AAAA for an IPv6 address\) to 203\.0\.113\.7/);
    assert.doesNotMatch(text, /CNAME to 203/);
  }
});
