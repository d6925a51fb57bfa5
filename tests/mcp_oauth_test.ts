/**
 * The whole OAuth flow as a real MCP client runs it (docs/SPEC.md "Authentication" 4): the SDK's own
 * OAuth support discovers the protected resource and authorization server metadata, registers a
 * client (RFC 7591), authorizes with PKCE S256 and exchanges the code, then calls tools with the
 * Bearer token. The provider follows the authorization redirect headlessly, answering the consent
 * page as a person would when the publisher shows one (tests/consent_driver.ts).
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { getPublisher, insertPublisher, updatePublisher } from "../store/publishers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { demoArticleIds } from "./console_activity_helpers.ts";
import { HeadlessProvider, startLoopbackFolio } from "./mcp_oauth_helpers.ts";

Deno.test("the SDK client's OAuth flow obtains a token and calls tools on a requireAuth publisher", async () => {
  await using folio = await startLoopbackFolio();
  const db = folio.deps.store.db;
  const p = (await getPublisher(db, "pub_demo"))!;
  await updatePublisher(db, { ...p, toggles: { ...p.toggles, requireAuth: true } }, {
    now: folio.clock.now(),
  });
  const url = new URL(`${folio.config.baseUrl}/api/mcp/pub_demo`);
  const provider = new HeadlessProvider();

  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await assert.rejects(client.connect(first), UnauthorizedError);
  await client.close();
  assert.equal(provider.authorizeStatus, 302);
  assert.ok(provider.code, "the authorization redirect carried a code");
  await first.finishAuth(provider.code!);
  assert.ok(provider.saved?.access_token);
  assert.equal(provider.saved?.token_type.toLowerCase(), "bearer");

  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const authed = new Client({ name: "oauth-test", version: "1.0.0" });
  await authed.connect(transport);
  try {
    const { tools } = await authed.listTools();
    assert.ok(tools.some((t: { name: string }) => t.name === "get_article"));
    // deno-lint-ignore no-explicit-any
    const r = await authed.callTool({ name: "list_recent", arguments: { limit: 2 } }) as any;
    assert.equal(r.structuredContent.count, 2);
  } finally {
    await authed.close();
  }
  const clientId = String((provider.info as { client_id: string }).client_id);
  await folio.deps.callLog.flush();
  const rows = await db.execute({
    sql:
      "SELECT DISTINCT identity FROM call_log WHERE publisher_id = 'pub_demo' AND tool = 'list_recent'",
    args: [],
  });
  assert.deepEqual(rows.rows.map((r) => r.identity), [`oauth:${clientId}`]);

  // The token is bound to pub_demo's resource (RFC 8707): another publisher's endpoint refuses it.
  await insertPublisher(db, { id: "pub_other", slug: "other", name: "Other" }, {
    now: folio.clock.now(),
  });
  const other = await fetch(`${folio.config.baseUrl}/api/mcp/pub_other`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${provider.saved!.access_token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(other.status, 401);
  assert.match(other.headers.get("www-authenticate") ?? "", /invalid_token/);
  await other.body?.cancel();
});

Deno.test("issue 42: the SDK client through the consent page, billed to the buyer signed in to the portal", async () => {
  await using folio = await startLoopbackFolio();
  const db = folio.deps.store.db;
  const p = (await getPublisher(db, "pub_demo"))!;
  await updatePublisher(db, {
    ...p,
    toggles: { ...p.toggles, requireAuth: true, consentScreen: true, subscriptionLinking: true },
  }, { now: folio.clock.now() });
  const { visitor } = await portalSignUp(folio, { name: "Acme AI" });
  const buyerSession = `folio_buyer_session=${visitor.cookies.get("folio_buyer_session")}`;
  const url = new URL(`${folio.config.baseUrl}/api/mcp/pub_demo`);
  const provider = new HeadlessProvider({ email: "reader@acme.example", buyerSession });

  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await assert.rejects(client.connect(first), UnauthorizedError);
  await client.close();
  assert.equal(provider.authorizeStatus, 303, "the consent page was answered");
  await first.finishAuth(provider.code!);

  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const authed = new Client({ name: "oauth-test", version: "1.0.0" });
  await authed.connect(transport);
  const [paid] = await demoArticleIds(folio, "PAYWALL");
  try {
    // deno-lint-ignore no-explicit-any
    const r = await authed.callTool({ name: "get_article", arguments: { url_or_id: paid } }) as any;
    assert.notEqual(r.isError, true, JSON.stringify(r));
  } finally {
    await authed.close();
  }
  const charges = await db.execute(
    "SELECT b.name FROM charges c JOIN buyers b ON b.id = c.buyer_id WHERE c.article_id = ?",
    [paid],
  );
  assert.deepEqual(charges.rows.map((r) => r.name), ["Acme AI"], "the signed-in buyer pays");
});

Deno.test("issue 42: the SDK client's reader denies on the consent page: no code, no token", async () => {
  await using folio = await startLoopbackFolio();
  const db = folio.deps.store.db;
  const p = (await getPublisher(db, "pub_demo"))!;
  await updatePublisher(db, {
    ...p,
    toggles: { ...p.toggles, requireAuth: true, consentScreen: true },
  }, { now: folio.clock.now() });
  const provider = new HeadlessProvider({ decision: "deny" });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${folio.config.baseUrl}/api/mcp/pub_demo`),
    { authProvider: provider },
  );
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await assert.rejects(client.connect(transport), UnauthorizedError);
  await client.close();
  assert.equal(provider.authorizeStatus, 303);
  assert.equal(provider.code, null);
  const codes = await db.execute("SELECT COUNT(*) AS n FROM oauth_codes");
  assert.equal(Number(codes.rows[0].n), 0);
});
