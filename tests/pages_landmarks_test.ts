/**
 * Issue 42's smaller faults: every platform page has a skip link and a main landmark, a portal's
 * address with a trailing slash finds it, the home page links a REST search only where a visitor
 * may call it, and the MCP card writes rights as every other place does.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { json, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { consoleSignUp } from "./console_helpers.ts";

Deno.test("every page outside the portals has a skip link to its one main landmark", async () => {
  await using folio = await testFolio();
  for (
    const path of [
      "/",
      "/license/pub_demo",
      "/status",
      "/docs",
      "/publisher/login",
      "/publisher/signup",
      "/buyer/login",
      "/buyer/signup",
    ]
  ) {
    const res = await folio.request(path);
    assert.equal(res.status, 200, path);
    const { document } = parseHTML(await res.text());
    const skip = document.querySelector("a.skip");
    assert.equal(skip?.getAttribute("href"), "#main", `${path}: the skip link`);
    assert.equal(document.querySelectorAll("main").length, 1, `${path}: one <main>`);
    assert.ok(document.querySelector("main#main"), `${path}: the skip link's target`);
  }
});

Deno.test("a signed-in publisher's /publisher/ is the console, not a 404", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/");
  assert.equal(page.status, 200);
  assert.match(page.html, /<h1>Overview<\/h1>/);
  // The redirect itself: permanent, the slash dropped, the query string kept.
  const res = await folio.request("/status/?window=7", { redirect: "manual" });
  assert.equal(res.status, 301);
  const to = new URL(res.headers.get("location")!);
  assert.equal(`${to.pathname}${to.search}`, "/status?window=7");
});

Deno.test("the home page links a REST search only when a visitor without a key may call it", async () => {
  await using folio = await testFolio();
  const home = async () => parseHTML(await (await folio.request("/")).text()).document;
  const link = (d: Document) =>
    [...d.querySelectorAll("a")].find((a) => a.getAttribute("href")?.includes("/articles/search"));
  assert.ok(link(await home()), "the demo's public REST is linked");
  const key = bearer(folio.seeded!.apiKey);
  const off = await sendJson(folio, "PATCH", "/api/publisher/settings", {
    toggles: { publicRest: false },
  }, key);
  assert.equal(off.status, 200);
  const d = await home();
  assert.equal(link(d), undefined, "no link a visitor would follow to a refusal");
  assert.match(d.body.textContent ?? "", /\/api\/v1 \(with a buyer key\)/);
});

Deno.test("the MCP card writes each right as granted or denied", async () => {
  await using folio = await testFolio();
  const card = await json<{ license: { rights: Record<string, string> } }>(
    await folio.request("/api/publishers/pub_demo/card"),
  );
  for (const [use, word] of Object.entries(card.license.rights)) {
    assert.ok(word === "granted" || word === "denied", `${use}: ${word}`);
  }
});
