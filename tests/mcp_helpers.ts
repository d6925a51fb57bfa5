/** MCP test utilities: the SDK client against a test Folio, raw JSON-RPC posts, minted tokens. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { ACCESS_PREFIX } from "../server/domain/accounts/tokens.ts";
import { mcpResourceUri } from "../server/platform/resource_metadata.ts";
import { hashSecret, newSecret, randomBase62 } from "../server/platform/secrets.ts";
import { insertClient, insertTokens, linkClientToBuyer } from "../store/oauth.ts";
import type { TestFolio } from "./helpers.ts";

export const ACCEPT = "application/json, text/event-stream";

/** The MCP endpoint of a publisher on the test server's loopback address. */
export function mcpUrl(folio: TestFolio, publisherId = "pub_demo"): URL {
  return new URL(`http://127.0.0.1:${new URL(folio.url).port}/api/mcp/${publisherId}`);
}

/** An initialized SDK client; closes with `await using`. */
export async function connect(
  folio: TestFolio,
  options: { publisherId?: string; headers?: Record<string, string> } = {},
): Promise<Client & AsyncDisposable> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(folio, options.publisherId), {
    requestInit: { headers: { "user-agent": "folio-test/1.0", ...options.headers } },
  });
  const client = new Client({ name: "folio-test", version: "1.0.0" });
  await client.connect(transport);
  return Object.assign(client, {
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  });
}

/** A raw POST of a JSON-RPC body (string bodies are sent as they are). */
export function post(
  folio: TestFolio,
  body: unknown,
  options: { sessionId?: string; headers?: Record<string, string>; publisherId?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: ACCEPT,
    ...options.headers,
  };
  if (options.sessionId) headers["mcp-session-id"] = options.sessionId;
  return folio.request(`/api/mcp/${options.publisherId ?? "pub_demo"}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Initializes by hand; returns the session id and the negotiated version. */
export async function initialize(
  folio: TestFolio,
  options: { protocolVersion?: string; headers?: Record<string, string>; publisherId?: string } =
    {},
): Promise<{ sessionId: string; protocolVersion: string; res: Response }> {
  const res = await post(folio, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "raw-test", version: "1" },
    },
  }, options);
  const body = res.ok ? await res.json() : await res.text();
  return {
    sessionId: res.headers.get("mcp-session-id") ?? "",
    protocolVersion: body?.result?.protocolVersion,
    res,
  };
}

/** An access token for `publisherId`'s MCP resource, stored the way the token endpoint does. */
export async function mintToken(
  folio: TestFolio,
  options: {
    publisherId?: string;
    clientId?: string;
    scope?: string;
    buyerId?: string;
    expiresInMs?: number;
  } = {},
): Promise<{ token: string; clientId: string }> {
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const publisherId = options.publisherId ?? "pub_demo";
  const clientId = options.clientId ?? `cli_${randomBase62(12)}`;
  if (!options.clientId) {
    await insertClient(db, {
      id: clientId,
      name: "Test client",
      redirectUris: ["http://127.0.0.1:9/cb"],
      metadata: {},
    }, { registeredFrom: "127.0.0.1", now });
    if (options.buyerId) await linkClientToBuyer(db, clientId, options.buyerId);
  }
  const token = newSecret(ACCESS_PREFIX);
  await insertTokens(db, [{
    hash: await hashSecret(token),
    kind: "access",
    clientId,
    publisherId,
    resource: mcpResourceUri(folio.config.baseUrl, publisherId),
    scope: options.scope ?? "mcp",
    familyId: `fam_${randomBase62(12)}`,
    grantExpiresAt: now.getTime() + 30 * 86_400_000,
    expiresAt: now.getTime() + (options.expiresInMs ?? 3_600_000),
  }], now);
  return { token, clientId };
}

/** Waits for the call log to be written, then returns the publisher's rows (oldest first). */
export async function callLogRows(folio: TestFolio, publisherId = "pub_demo") {
  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute({
    sql:
      "SELECT tool, status, http_status, identity FROM call_log WHERE publisher_id = ? ORDER BY id",
    args: [publisherId],
  });
  return rs.rows.map((r) => ({
    tool: String(r.tool),
    status: String(r.status),
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    identity: r.identity === null ? null : String(r.identity),
  }));
}

/** One tool call on a fresh session (initialize, then tools/call); returns the JSON-RPC result. */
export async function mcpTool(
  folio: TestFolio,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const { sessionId, res } = await initialize(folio, { headers });
  if (res.status !== 200) throw new Error(`initialize answered ${res.status}`);
  const call = await post(folio, {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name, arguments: args },
  }, { sessionId, headers });
  if (call.status !== 200) throw new Error(`tools/call answered ${call.status}`);
  return (await call.json()).result;
}
