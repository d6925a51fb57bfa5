/**
 * HEAD answers state the GET body's Content-Length or none (RFC 9110 section 8.6), as a bare
 * `Deno.serve` does (issue 40): never the `Content-Length: 0` Hono's body-less answer got.
 */
import assert from "node:assert/strict";
import { startTestFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";

async function lengths(get: () => Promise<Response>, head: () => Promise<Response>) {
  const g = await get();
  const body = (await g.arrayBuffer()).byteLength;
  const h = await head();
  assert.equal(h.body === null || (await h.arrayBuffer()).byteLength === 0, true);
  // A body that changes between calls (status gaining a probe round) is measured again after the
  // HEAD: the HEAD states one of the two lengths it stands between.
  const after = (await (await get()).arrayBuffer()).byteLength;
  const headLength = h.headers.get("content-length");
  const matched = headLength === String(after) ? after : body;
  return { body: matched, get: g.headers.get("content-length"), head: headLength };
}

Deno.test("a bare Deno.serve states the GET length on HEAD (the reference)", async () => {
  await using server = Deno.serve({ port: 0, onListen() {} }, () => new Response("eleven char"));
  const url = `http://127.0.0.1:${server.addr.port}/`;
  const got = await lengths(() => fetch(url), () => fetch(url, { method: "HEAD" }));
  assert.deepEqual(got, { body: 11, get: "11", head: "11" });
});

Deno.test("HEAD carries the GET body's Content-Length on Folio's routes", async () => {
  await using folio = await startTestFolio();
  const key = folio.seeded!.apiKey;
  // Health times its own round trip, so each answer's body differs (0.1 vs 0.12 ms): its HEAD is
  // checked against the lengths that body can have, the others against the GETs around them.
  const health = await folio.request("/api/health", { method: "HEAD", checkDocumented: false });
  const healthLength = Number(health.headers.get("content-length"));
  const shortest = JSON.stringify({ ok: true, dbLatencyMs: 0 }).length;
  assert.ok(
    healthLength >= shortest && healthLength <= shortest + 8,
    `health HEAD ${healthLength}`,
  );
  const routes: { path: string; host?: string; headers?: Record<string, string> }[] = [
    { path: "/api/status" },
    { path: "/api/openapi.json" },
    { path: "/.well-known/jwks.json" },
    { path: "/api/v1/articles", headers: { authorization: "Bearer mk_wrong" } },
    {
      path: "/api/v1/publishers/pub_demo/articles/search?q=climate",
      headers: { authorization: `Bearer ${key}` },
    },
    { path: "/robots.txt", host: HOST },
    { path: "/license.xml", host: HOST },
    { path: "/", host: HOST, headers: { "user-agent": GPTBOT } },
  ];
  for (const r of routes) {
    const init = (method: string) => ({
      method,
      host: r.host,
      headers: r.headers,
      checkDocumented: false,
    });
    const got = await lengths(
      () => folio.request(r.path, init("GET")),
      () => folio.request(r.path, init("HEAD")),
    );
    assert.ok(got.body > 0, r.path);
    assert.equal(got.head, String(got.body), `${r.path}: ${JSON.stringify(got)}`);
  }
});

Deno.test("HEAD on an event stream states no length", async () => {
  await using folio = await startTestFolio();
  const res = await folio.request("/ask?query=climate", {
    method: "HEAD",
    host: HOST,
    checkDocumented: false,
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  assert.equal(res.headers.get("content-length"), null);
  await res.body?.cancel();
});
