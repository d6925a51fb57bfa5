/**
 * Host names outside ASCII (issue 39, part 5): a Host header with an invalid punycode label is a
 * 400 on every path (the URL parser refuses it, so no route could read it), such a name is refused
 * as a custom domain, and an internationalised name is stored as DNS carries it (punycode).
 */
import assert from "node:assert/strict";
import { json, startTestFolio, testFolio } from "./helpers.ts";
import { assertInvalid, signUp } from "./manage_helpers.ts";
import { claim, type Doc, served, settings } from "./domain_helpers.ts";

/** One raw HTTP/1.1 request with `host` as its Host header: the status line's code and body. */
async function rawGet(port: number, host: string, path: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const answer = new TextDecoder().decode(
      await new Response(conn.readable).arrayBuffer(),
    );
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), text: answer };
  } catch (e) {
    conn.close();
    throw e;
  }
}

Deno.test("a Host with an invalid punycode label is a 400 on every path, not a 500", async () => {
  await using folio = await startTestFolio();
  const port = Number(new URL(folio.url).port);
  for (const path of ["/", "/robots.txt", "/license.xml", "/api/v1/articles/search?q=x"]) {
    const res = await rawGet(port, "xn--zz.localhost", path);
    assert.equal(res.status, 400, `${path}: ${res.text.slice(0, 200)}`);
    assert.match(res.text, /"code":"invalid_request"/);
    assert.match(res.text, /Host: is not a valid host name/);
  }
  const fine = await rawGet(port, "demo.localhost", "/robots.txt");
  assert.equal(fine.status, 200);
  assert.ok(!folio.logLines.some((l) => /Invalid URL/.test(l)), "nothing is logged as a fault");
});

Deno.test("an invalid punycode name is refused as a custom domain; an internationalised one is stored as punycode", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signUp(folio, { slug: "acme" });
  const before = await settings(folio, apiKey);
  for (const bad of ["xn--zz.acme.test", "news.xn--zz.test", "xn--.acme.test"]) {
    await assertInvalid(
      await claim(folio, apiKey, bad),
      "customDomain: must be a host name such as news.example.com",
    );
  }
  assert.deepEqual(await settings(folio, apiKey), before);

  const doc = await json<Doc>(await claim(folio, apiKey, "Bücher.Acme.test"));
  assert.equal(doc.domain.name, "xn--bcher-kva.acme.test");
  assert.equal(doc.domain.status, "verified");
  assert.equal((await settings(folio, apiKey)).customDomain, "xn--bcher-kva.acme.test");
  assert.equal(await served(folio, "xn--bcher-kva.acme.test"), 200);
});
