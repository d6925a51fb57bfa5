/**
 * The MCP endpoint, `POST|DELETE {base}/api/mcp/<publisherId>` (docs/SPEC.md "MCP server"), over the
 * SDK's web-standard streamable HTTP transport. Each request gets a fresh server and transport;
 * the session lives in the store (server/mcp/session.ts), so any node serves any session:
 * initialize runs a stateful transport that issues the id; later requests are checked against the
 * store here and then handled by a stateless transport (the SDK's own pattern for multi-node).
 */
import type { Context } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { getPublisher, type Publisher } from "../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { territoryOf } from "../identity.ts";
import { hashSecret } from "../secrets.ts";
import {
  authenticate,
  checkHost,
  checkOrigin,
  checkScope,
  type Credential,
  errorResponse,
  McpHttpError,
} from "./guard.ts";
import { buildServer } from "./server.ts";
import {
  closeSession,
  newSessionId,
  openSession,
  resumeSession,
  sessionIdentity,
} from "./session.ts";

/** docs/TEST-PLAN.md 2.18: bodies over 1 MiB are refused before parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Handles one request to a publisher's MCP endpoint, and logs it. */
export async function handleMcp(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const started = performance.now();
  const req = c.req.raw;
  let publisher: Publisher | null = null;
  let identity: string | null = null;
  // A GET (the client probing for an SSE stream) is no protocol call: it is not logged.
  let methods = req.method === "GET" ? [] : [`_method:${req.method}`];
  let res: Response;
  try {
    publisher = await getPublisher(deps.store.db, c.req.param("publisherId") ?? "");
    if (!publisher) throw new McpHttpError(404, -32001, "No MCP server has that publisher id");
    const ctx = { baseUrl: deps.config.baseUrl, publisher, scheme: new URL(req.url).protocol };
    checkHost(req.headers, ctx);
    checkOrigin(req.headers, ctx);
    if (req.method !== "POST" && req.method !== "DELETE") {
      // No standalone SSE stream: server-initiated messages would tie a session to one node.
      throw new McpHttpError(405, -32000, "Method not allowed", { Allow: "POST, DELETE" });
    }
    const credential = await authenticate(req, deps, publisher);
    identity = credential.identity;
    checkScope(credential, { baseUrl: deps.config.baseUrl, publisherId: publisher.id });
    if (req.method === "DELETE") {
      const session = await resume(deps, publisher, req, credential);
      await closeSession(deps.store.db, publisher, session, { now: deps.clock.now() });
      res = new Response(null, { status: 200 });
    } else {
      const body = await readJson(req);
      const messages = (Array.isArray(body) ? body : [body]) as { method?: unknown }[];
      methods = messages.flatMap((m) =>
        m && typeof m.method === "string" ? [`_method:${safeName(m.method)}`] : []
      );
      const out = await post(c, deps, { publisher, credential, body, messages });
      identity = out.identity;
      res = out.res;
    }
  } catch (err) {
    if (!(err instanceof McpHttpError)) throw err;
    res = errorResponse(err);
  }
  const latencyMs = performance.now() - started;
  for (const tool of methods) {
    deps.callLog.record({
      publisherId: publisher?.id ?? null,
      at: deps.clock.now(),
      surface: "mcp",
      tool,
      userAgent: req.headers.get("user-agent") ?? "",
      latencyMs,
      status: res.status < 400 ? "trace" : "error",
      httpStatus: res.status,
      identity,
      requestId: c.get("requestId"),
    });
  }
  return res;
}

async function post(
  c: Context<AppEnv>,
  deps: AppDeps,
  r: {
    publisher: Publisher;
    credential: Credential;
    body: unknown;
    messages: { method?: unknown }[];
  },
): Promise<{ res: Response; identity: string }> {
  const { publisher, credential } = r;
  const init = r.messages.find((m) => m?.method === "initialize") as
    | { params?: { protocolVersion?: unknown; clientInfo?: unknown; capabilities?: unknown } }
    | undefined;
  let transport: WebStandardStreamableHTTPServerTransport;
  let sessionHash: string;
  if (init) {
    const id = newSessionId();
    sessionHash = await hashSecret(id);
    const requested = String(init.params?.protocolVersion ?? "");
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: async () => {
        await openSession(deps.store.db, publisher, {
          id,
          credential,
          protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
            ? requested
            : LATEST_PROTOCOL_VERSION,
          clientInfo: boundedInfo(init.params),
          now: deps.clock.now(),
        });
      },
    });
  } else {
    const session = await resume(deps, publisher, c.req.raw, credential);
    if (Array.isArray(r.body) && session.protocolVersion >= "2025-06-18") {
      // JSON-RPC batching was removed in protocol 2025-06-18 (docs/TEST-PLAN.md 2.16).
      throw new McpHttpError(
        400,
        -32600,
        `Invalid Request: batches are not supported in protocol version ${session.protocolVersion}`,
      );
    }
    sessionHash = session.idHash;
    transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  }
  const identity = credential.identity ?? sessionIdentity(sessionHash);
  const server = buildServer({
    deps,
    publisher,
    caller: {
      identity,
      buyerId: credential.buyerId,
      territory: territoryOf(deps.config, c.req.raw.headers),
      surface: "mcp",
    },
    sessionKey: sessionHash.slice(0, 32),
    userAgent: c.req.header("user-agent") ?? "",
    requestId: c.get("requestId"),
  });
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(c.req.raw, { parsedBody: r.body });
    return { res, identity };
  } finally {
    await server.close();
  }
}

function resume(deps: AppDeps, publisher: Publisher, req: Request, credential: Credential) {
  return resumeSession(deps.store.db, publisher, {
    header: req.headers.get("mcp-session-id"),
    credential,
    baseUrl: deps.config.baseUrl,
    now: deps.clock.now(),
  });
}

/** The body as JSON: 413 past MAX_BODY_BYTES (declared or streamed), -32700 when not JSON. */
async function readJson(req: Request): Promise<unknown> {
  const tooLarge = new McpHttpError(413, -32000, "Payload too large: the limit is 1 MiB");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) {
    await req.body?.cancel();
    throw tooLarge;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge;
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  try {
    const body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (Array.isArray(body) && body.length === 0) {
      throw new McpHttpError(400, -32600, "Invalid Request: empty batch");
    }
    return body;
  } catch (err) {
    if (err instanceof McpHttpError) throw err;
    throw new McpHttpError(400, -32700, "Parse error: Invalid JSON");
  }
}

/** A method name fit for the call log (attacker-chosen text is not logged verbatim). */
function safeName(method: string): string {
  return /^[\w./-]{1,64}$/.test(method) ? method : "invalid";
}

/** What we keep of initialize's client facts: bounded, for the publisher's view of installs. */
function boundedInfo(params: { clientInfo?: unknown; capabilities?: unknown } | undefined) {
  const info = {
    clientInfo: params?.clientInfo ?? null,
    capabilities: params?.capabilities ?? null,
  };
  return JSON.stringify(info).length <= 8192 ? info : { clientInfo: null, capabilities: null };
}
