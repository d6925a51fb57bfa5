/**
 * The platform's own small answers to browsers (issue 34): a 404 page for a navigation to a path
 * with no route (API clients keep the JSON error model), and the icon every page links.
 */
import assert from "node:assert/strict";
import { textOf, Visitor } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";

/** What Chromium sends when a person follows a link or types an address. */
const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

Deno.test("a browser's navigation to a path with no route gets a 404 page with the way home", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/no/such/<page>", { headers: { accept: BROWSER_ACCEPT } });
  assert.equal(res.status, 404);
  assert.match(res.headers.get("content-type")!, /^text\/html/);
  assert.match(res.headers.get("content-security-policy")!, /^default-src 'none'; img-src 'self'/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  const html = await res.text();
  assert.match(html, /^<!doctype html>/);
  assert.match(textOf(html), /Page not found There is no page at \/no\/such\/<page> \./);
  assert.doesNotMatch(html, /<page>/, "the path is text, escaped");
  assert.match(html, /<a href="\/">Folio home page<\/a>/);
  assert.match(html, /<link rel="icon" href="\/favicon.svg"/);
});

Deno.test("API clients keep the JSON error model for a path with no route", async () => {
  await using folio = await testFolio();
  const model = (path: string) => ({
    error: { code: "not_found", message: `No route for GET ${path}` },
  });
  for (
    const accept of [
      null,
      "*/*",
      "application/json",
      "application/json, text/html",
      "application/json, text/event-stream",
      "text/html;q=0.5, application/json",
    ]
  ) {
    const headers: Record<string, string> = accept === null ? {} : { accept };
    for (const path of ["/nope", "/api/nope"]) {
      const res = await folio.request(path, { headers });
      assert.equal(res.status, 404, `${accept} ${path}`);
      assert.equal(res.headers.get("content-type"), "application/json", `${accept} ${path}`);
      assert.deepEqual(await res.json(), model(path), `${accept} ${path}`);
    }
  }
});

Deno.test("the icon is served as SVG, long cached, at /favicon.svg and /favicon.ico", async () => {
  await using folio = await testFolio();
  const [svg, ico] = [await folio.request("/favicon.svg"), await folio.request("/favicon.ico")];
  for (const res of [svg, ico]) {
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/svg+xml");
    assert.match(res.headers.get("cache-control")!, /^public, max-age=\d{6,}$/);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  }
  const body = await svg.text();
  assert.match(body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/);
  assert.doesNotMatch(body, /<script|on\w+=/i, "a mark, nothing that runs");
  assert.equal(await ico.text(), body);
});

Deno.test("every kind of platform page links the icon, and its policy lets it load", async () => {
  await using folio = await testFolio();
  const pages = ["/", "/status", "/docs", "/license/pub_demo"];
  for (const path of pages) {
    const res = await folio.request(path);
    assert.equal(res.status, 200, path);
    assert.match(
      await res.text(),
      /<link rel="icon" href="\/favicon.svg" type="image\/svg\+xml"\/?>/,
    );
    assert.match(res.headers.get("content-security-policy")!, /img-src 'self'/, path);
  }
  const login = await new Visitor(folio).get("/publisher/login");
  assert.match(login.html, /<link rel="icon" href="\/favicon.svg"/);
  assert.match(login.headers.get("content-security-policy")!, /img-src 'self'/);
});
