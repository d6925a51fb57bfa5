/**
 * The MCP endpoint, `POST|DELETE {base}/api/mcp/<publisherId>` and `/mcp` on the publisher's own
 * domain (docs/SPEC.md "MCP server"), over the
 * SDK's web-standard streamable HTTP transport. Each request gets a fresh server and transport;
 * the session lives in the store (server/surfaces/mcp/session.ts), so any node serves any session:
 * initialize runs a stateful transport that issues the id; later requests are checked against the
 * store here and then handled by a stateless transport (the SDK's own pattern for multi-node).
 */
import type { Context } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../domain/mcp_versions.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { callerOf } from "../../platform/envelope.ts";
import type { Credential } from "../../platform/identity.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { McpHttpError } from "./guard.ts";
import { buildServer } from "./server.ts";
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";
import {
  closeSession,
  newSessionId,
  openSession,
  resumeSession,
  sessionIdentity,
} from "./session.ts";

/**
 * POST: one JSON-RPC message (or, before protocol 2025-06-18, a batch) on a new or resumed
 * session; DELETE: ends the session. The envelope (server/surfaces/mcp/routes.ts) has already resolved the
 * publisher, checked Host, Origin, credential and scope, and limited the body.
 */
export async function handleMcp(
  c: Context<PublishedEnv>,
  deps: AppDeps,
  metadataUrl: string,
): Promise<Response> {
  const publisher = c.get("publisher");
  const credential = c.get("credential");
  if (c.req.method === "DELETE") {
    const session = await resume(deps, publisher, c.req.raw, { credential, metadataUrl });
    await closeSession(deps.store.db, publisher, session, { now: deps.clock.now() });
    return new Response(null, { status: 200 });
  }
  const body = await readJson(c.req.raw);
  const messages = (Array.isArray(body) ? body : [body]) as { method?: unknown }[];
  c.set("call", {
    tools: messages.flatMap((m) =>
      m && typeof m.method === "string" ? [`_method:${safeName(m.method)}`] : []
    ),
    okAs: "trace",
  });
  const out = await post(c, deps, { publisher, credential, body, messages, metadataUrl });
  c.set("identity", out.identity);
  return out.res;
}

async function post(
  c: Context<PublishedEnv>,
  deps: AppDeps,
  r: {
    publisher: Publisher;
    credential: Credential | null;
    body: unknown;
    messages: { method?: unknown }[];
    metadataUrl: string;
  },
): Promise<{ res: Response; identity: string }> {
  const { publisher, credential } = r;
  const init = r.messages.find((m) => m?.method === "initialize") as
    | { params?: { protocolVersion?: unknown; clientInfo?: unknown; capabilities?: unknown } }
    | undefined;
  let transport: WebStandardStreamableHTTPServerTransport;
  let sessionHash: string;
  let protocolVersion: string;
  if (init) {
    const id = newSessionId();
    sessionHash = await hashSecret(id);
    const requested = String(init.params?.protocolVersion ?? "");
    protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
      ? requested
      : LATEST_PROTOCOL_VERSION;
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: async () => {
        await openSession(deps.store.db, publisher, {
          id,
          credential,
          protocolVersion,
          clientInfo: boundedInfo(init.params),
          now: deps.clock.now(),
        });
      },
    });
  } else {
    const session = await resume(deps, publisher, c.req.raw, r);
    if (Array.isArray(r.body) && session.protocolVersion >= "2025-06-18") {
      // JSON-RPC batching was removed in protocol 2025-06-18 (docs/TEST-PLAN.md 2.16).
      throw new McpHttpError(
        400,
        -32600,
        `Invalid Request: batches are not supported in protocol version ${session.protocolVersion}`,
      );
    }
    sessionHash = session.idHash;
    protocolVersion = session.protocolVersion;
    transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  }
  const identity = credential?.identity ?? sessionIdentity(sessionHash);
  c.set("identity", identity);
  const server = buildServer({
    deps,
    publisher,
    caller: callerOf(c, deps, "mcp"),
    idempotencyKey: idempotencyKeyOf(c.req.header("idempotency-key")),
    userAgent: c.req.header("user-agent") ?? "",
    requestId: c.get("requestId"),
    logged: !c.get("probe"),
    protocolVersion,
  });
  await server.connect(withBareErrors(transport));
  try {
    const res = await transport.handleRequest(c.req.raw, { parsedBody: r.body });
    return { res, identity };
  } finally {
    // The transport closes alone: the SDK's Protocol would answer the close by failing its pending
    // outgoing requests with an Error whose stack it builds every time (6% of a tools/call), and a
    // server that lives for one JSON response has none pending.
    transport.onclose = undefined;
    await server.close();
  }
}

/**
 * The transport, sending each error message bare. The SDK answers a thrown McpError with its
 * `message`, which McpError's constructor already prefixed with "MCP error <code>: "; the client's
 * McpError prefixes it again, so clients read "MCP error -32602: MCP error -32602: ...".
 */
function withBareErrors(
  t: WebStandardStreamableHTTPServerTransport,
): WebStandardStreamableHTTPServerTransport {
  const send = t.send.bind(t);
  t.send = (message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }) =>
    send(bareError(message), options);
  return t;
}

/** The message with its error's own "MCP error <code>: " prefix removed (once). */
export function bareError(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message)) return message;
  const prefix = `MCP error ${message.error.code}: `;
  if (!message.error.message.startsWith(prefix)) return message;
  return {
    ...message,
    error: { ...message.error, message: message.error.message.slice(prefix.length) },
  };
}

function resume(
  deps: AppDeps,
  publisher: Publisher,
  req: Request,
  r: { credential: Credential | null; metadataUrl: string },
) {
  return resumeSession(deps.store.db, publisher, {
    header: req.headers.get("mcp-session-id"),
    credential: r.credential,
    metadataUrl: r.metadataUrl,
    now: deps.clock.now(),
  });
}

/** The (size-limited) body as JSON: -32700 when it is not JSON, -32600 for an empty batch. */
async function readJson(req: Request): Promise<unknown> {
  const bytes = new Uint8Array(await req.arrayBuffer());
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
