/**
 * The MCP endpoint at `/mcp` on a publisher's own domain (demo.localhost): the same server, auth and
 * behaviour as `/api/mcp/<id>`, and OAuth metadata (RFC 9728) naming that URL as the resource, so
 * the SDK client's own OAuth flow works against it over a real socket.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { publisherForResource } from "../server/surfaces/oauth/resource.ts";
import { insertPublisher } from "../store/publishers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { ACCEPT, callLogRows } from "./mcp_helpers.ts";
import { HeadlessProvider, loopbackFetch, startLoopbackFolio } from "./mcp_oauth_helpers.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "h", version: "1" },
  },
};

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("the SDK client works at /mcp on the publisher's domain, as at /api/mcp/<id>", async () => {
  await using folio = await startLoopbackFolio();
  using net = loopbackFetch(folio);
  const port = new URL(folio.url).port;
  const url = new URL(`http://demo.localhost:${port}/mcp`);
  const client = new Client({ name: "host-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: net.fetch }));
  try {
    assert.equal(client.getServerVersion()?.name, "folio-demo");
    const r = await client.callTool({ name: "list_recent", arguments: { limit: 2 } }) as Any;
    assert.equal(r.structuredContent.count, 2);
    const { prompts } = await client.listPrompts();
    assert.equal(prompts.length, 3);
  } finally {
    await client.close();
  }
  assert.ok((await callLogRows(folio)).some((row) => row.tool === "list_recent"));

  // The card names both addresses of the one server.
  const card = await (await fetch(`${folio.url}/api/publishers/pub_demo/card`)).json();
  assert.equal(card.mcp.endpoint, `${folio.config.baseUrl}/api/mcp/pub_demo`);
  assert.equal(card.mcp.hostEndpoint, url.href);
});

Deno.test("/mcp answers 404 on a host that is no publisher's, the platform's included", async () => {
  await using folio = await startLoopbackFolio();
  using net = loopbackFetch(folio);
  const port = new URL(folio.url).port;
  for (const host of ["127.0.0.1", "nobody.localhost"]) {
    const res = await net.fetch(`http://${host}:${port}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT },
      body: JSON.stringify(INIT),
    });
    assert.equal(res.status, 404, host);
    const body = await res.json();
    assert.deepEqual(body.error, { code: -32001, message: `No publisher serves MCP at ${host}` });
  }
  const meta = await fetch(`${folio.url}/.well-known/oauth-protected-resource`);
  assert.equal(meta.status, 404, "the platform host has no resource at its root");
  await meta.body?.cancel();
});

Deno.test("the SDK client's OAuth flow works against /mcp on the publisher's domain", async () => {
  await using folio = await startLoopbackFolio();
  using net = loopbackFetch(folio);
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, requireAuth: true } }));
  const port = new URL(folio.url).port;
  const url = new URL(`http://demo.localhost:${port}/mcp`);
  const metadataUrl = `http://demo.localhost:${port}/.well-known/oauth-protected-resource/mcp`;

  // Without a token: 401 pointing at this URL's own metadata, which names this URL.
  const bare = await net.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify(INIT),
  });
  assert.equal(bare.status, 401);
  assert.equal(bare.headers.get("www-authenticate"), `Bearer resource_metadata="${metadataUrl}"`);
  await bare.body?.cancel();
  for (
    const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]
  ) {
    const meta = await (await net.fetch(`http://demo.localhost:${port}${path}`)).json();
    assert.equal(meta.resource, url.href, path);
    assert.deepEqual(meta.authorization_servers, [folio.config.baseUrl]);
  }

  const provider = new HeadlessProvider();
  const first = new StreamableHTTPClientTransport(url, {
    authProvider: provider,
    fetch: net.fetch,
  });
  const client = new Client({ name: "oauth-host-test", version: "1.0.0" });
  await assert.rejects(client.connect(first), UnauthorizedError);
  await client.close();
  assert.equal(provider.authorizeStatus, 302);
  await first.finishAuth(provider.code!);
  const token = provider.saved!.access_token;

  const authed = new Client({ name: "oauth-host-test", version: "1.0.0" });
  await authed.connect(
    new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: net.fetch }),
  );
  try {
    const r = await authed.callTool({ name: "list_recent", arguments: { limit: 1 } }) as Any;
    assert.equal(r.structuredContent.count, 1);
  } finally {
    await authed.close();
  }
  const stored = await folio.deps.store.db.execute({
    sql: "SELECT DISTINCT resource FROM oauth_tokens WHERE client_id = ?",
    args: [String((provider.info as { client_id: string }).client_id)],
  });
  assert.deepEqual(stored.rows.map((r) => r.resource), [url.href], "bound to the host's URI");

  // Both URIs name the one server: the token works at /api/mcp/pub_demo too, not at another's.
  const post = (target: string) =>
    fetch(target, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: ACCEPT,
      },
      body: JSON.stringify(INIT),
    });
  const canonical = await post(`${folio.config.baseUrl}/api/mcp/pub_demo`);
  assert.equal(canonical.status, 200);
  await canonical.body?.cancel();
  await insertPublisher(folio.deps.store.db, { id: "pub_other", slug: "other", name: "Other" }, {
    now: folio.clock.now(),
  });
  const other = await post(`${folio.config.baseUrl}/api/mcp/pub_other`);
  assert.equal(other.status, 401);
  await other.body?.cancel();
});

Deno.test("a resource indicator names a publisher's domain exactly, or it is refused", async () => {
  await using folio = await startLoopbackFolio();
  const db = folio.deps.store.db;
  const port = new URL(folio.url).port;
  const options = { baseUrl: folio.config.baseUrl };
  const ok = await publisherForResource(db, `http://demo.localhost:${port}/mcp`, options);
  assert.equal(ok.id, "pub_demo");
  for (
    const bad of [
      `http://demo.localhost:${port}/mcp/`,
      `http://demo.localhost:${port}/api/mcp/pub_demo`,
      `https://demo.localhost:${port}/mcp`,
      `http://demo.localhost:1/mcp`,
      `http://evil.localhost:${port}/mcp`,
      `http://demo.localhost:${port}/mcp?x=1`,
      "not a url",
    ]
  ) {
    await assert.rejects(publisherForResource(db, bad, options), /invalid_target|resource:/, bad);
  }
});
