/**
 * The root's host router (server/platform/host_router.ts): each host and path lands in the app
 * that should answer it. The platform's paths on its own host; on a publisher's verified custom
 * domain its site, beside the agent APIs every host serves; on a host no publisher holds, the
 * platform, whose 404 answers a site's path.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import type { AppEnv } from "../server/deps.ts";
import { answerFor, claimsOf, routedPath, SITE } from "../server/platform/host_router.ts";
import { json, startTestFolio, testFolio } from "./helpers.ts";
import { ACCEPT, callLogRows } from "./mcp_helpers.ts";
import { BROWSER, demoPath, HOST } from "./landing_helpers.ts";

const UNKNOWN = "nobody.example";

/** Stand-ins for the agent APIs: a route each, and a wildcard middleware that claims nothing. */
function apis(): [string, Hono<AppEnv>][] {
  const rest = new Hono<AppEnv>();
  rest.use("/*", async (_c, next) => await next());
  rest.get("/articles/search", (c) => c.body(null));
  const mcp = new Hono<AppEnv>();
  mcp.all("/", (c) => c.body(null));
  const a2a = new Hono<AppEnv>();
  a2a.post("/x", (c) => c.body(null));
  return [["/api/v1", rest], ["/mcp", mcp], ["/a2a", a2a]];
}

Deno.test("answerFor(): the Host and the path decide who answers, and where it is routed", async () => {
  await using folio = await testFolio();
  const platform = new URL(folio.config.baseUrl).host;
  const claims = claimsOf(apis());
  const cases: [host: string, path: string, app: "platform" | "site", method?: string][] = [
    [platform, "/", "platform"],
    [platform, "/robots.txt", "platform"],
    [platform, "/api/v1/articles/search", "platform"],
    [HOST, "/", "site"],
    [`${HOST}:8080`, "/robots.txt", "site"],
    [HOST.toUpperCase(), "/license.xml", "site"],
    [HOST, "/publisher", "site"],
    [HOST, "/mcpx", "site"],
    [HOST, "/mcp", "platform"],
    [HOST, "/a2a/x", "platform", "POST"],
    [HOST, "/api/v1/articles/search", "platform"],
    [HOST, "/api/v1/articles/search", "platform", "HEAD"],
    [HOST, "/api/v1/articles/search", "platform", "OPTIONS"],
    // What no API routes stays the site's, as when the site was mounted after them.
    [HOST, "/api/v1/articles/search", "site", "PUT"],
    [HOST, "/api/v1/nope", "site"],
    [UNKNOWN, "/", "platform"],
    [UNKNOWN, "/an/article", "platform"],
  ];
  for (const [host, path, app, method = "GET"] of cases) {
    const req = new Request(`http://${host}${path}`, { method, headers: { host } });
    const answer = await answerFor(folio.deps, req, claims);
    assert.equal(answer.app, app, `${host}${path}`);
    if (answer.app === "site") assert.equal(answer.publisher.id, "pub_demo");
    const routed = routedPath(req, { env: { folioHost: answer } });
    assert.equal(routed.startsWith(SITE), app === "site", `${host}${path} routed as ${routed}`);
  }
});

Deno.test("each host and path lands in the app that should answer it", async () => {
  await using folio = await testFolio();
  const article = await demoPath(folio, "OBSERVE");
  const get = (path: string, host?: string) => folio.request(path, { host });
  const siteHtml = async (res: Response, status = 200) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-security-policy") ?? "", /default-src/);
    const html = await res.text();
    assert.match(html, /The Demo Ledger/);
    return html;
  };
  const platform404 = async (res: Response) => {
    assert.equal(res.status, 404);
    assert.equal((await json<{ error: { code: string } }>(res)).error.code, "not_found");
  };

  // The platform's own host: its pages and APIs; a site's paths are the platform's 404.
  const home = await get("/");
  assert.equal(home.status, 200);
  assert.doesNotMatch(home.headers.get("link") ?? "", /license\.xml/);
  assert.doesNotMatch(await home.text(), /The Demo Ledger<\/title>/);
  assert.equal((await json<{ ok: boolean }>(await get("/api/health"))).ok, true);
  await platform404(await get("/robots.txt"));
  await platform404(await get("/license.xml"));
  await platform404(await get(article.path));
  await platform404(await get(`${SITE}${article.path}`));

  // A publisher's domain: its site, its documents and the agent surfaces.
  await siteHtml(await get("/", HOST));
  assert.match(await siteHtml(await get(article.path, HOST)), /<article|<h1/);
  await siteHtml(await get("/publisher", HOST), 404);
  await siteHtml(await get(`${SITE}/`, HOST), 404);
  const robots = await get("/robots.txt", HOST);
  assert.equal(robots.status, 200);
  assert.match(await robots.text(), /User-agent/i);
  const license = await get("/license.xml", HOST);
  assert.equal(license.status, 200);
  assert.match(await license.text(), /<rsl/);
  const rest = await get("/api/v1/articles/search?q=the", HOST);
  assert.equal(rest.status, 200);
  assert.ok(Array.isArray((await json<{ results: unknown[] }>(rest)).results));
  const mcp = await folio.request("/mcp", {
    host: HOST,
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });
  assert.equal(mcp.status, 200);
  assert.match(await mcp.text(), /"serverInfo"/);
  const a2a = await folio.request("/a2a", {
    host: HOST,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t_none" } }),
  });
  assert.equal((await json<{ jsonrpc: string }>(a2a)).jsonrpc, "2.0");
  assert.equal((await json<{ ok: boolean }>(await get("/api/health", HOST))).ok, true);

  // A host no publisher holds: the platform, whose 404 answers a site's paths.
  await platform404(await get(article.path, UNKNOWN));
  await platform404(await get("/robots.txt", UNKNOWN));
  assert.equal((await json<{ ok: boolean }>(await get("/api/health", UNKNOWN))).ok, true);
});

Deno.test("over a real socket the site still meters a reader by its peer address", async () => {
  await using folio = await startTestFolio();
  const article = await demoPath(folio, "OBSERVE");
  const res = await folio.request(article.path, { host: HOST, headers: { "user-agent": BROWSER } });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const rows = await callLogRows(folio);
  assert.deepEqual(rows.map((r) => `${r.tool} ${r.identity}`), ["_landing:article ip:127.0.0.1"]);
});
