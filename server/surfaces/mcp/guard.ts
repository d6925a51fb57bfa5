/**
 * The MCP endpoint's checks before any JSON-RPC handling: Host (DNS-rebinding protection,
 * docs/TEST-PLAN.md 2.9b), Origin (MCP transport spec "Security Warning"; docs/TEST-PLAN.md 2.9),
 * the token's scope, and how the envelope's refusals read here (docs/SPEC.md "Authentication";
 * RFC 6750 §3 for the 401 challenge, RFC 9728 §5.1 for `resource_metadata`).
 */
import { licenseChallenge } from "../../domain/rsl/license_tokens.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { normaliseHost } from "../../../store/publishers.ts";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import type { EnvelopeRefusal } from "../../platform/envelope.ts";
import type { Credential } from "../../platform/identity.ts";

/** An HTTP-level refusal, answered as a JSON-RPC error object with `id: null`. */
export class McpHttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 413,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The JSON-RPC error response for a refusal. */
export function errorResponse(err: McpHttpError): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: err.code, message: err.message }, id: null },
    { status: err.status, headers: err.headers },
  );
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Refuses a Host that is neither the platform's, the publisher's domain, nor a loopback literal:
 * a rebound DNS name pointing at a local install carries the attacker's host name.
 */
export function checkHost(
  headers: Headers,
  ctx: { baseUrl: string; publisher: Publisher },
): void {
  const raw = headers.get("host");
  if (raw === null) return; // HTTP/1.0 without Host cannot come from a browser.
  const host = normaliseHost(raw);
  const allowed = host === new URL(ctx.baseUrl).hostname || LOOPBACK.has(host) ||
    (ctx.publisher.customDomain !== null && host === ctx.publisher.customDomain);
  if (!allowed) throw new McpHttpError(403, -32000, `Forbidden: Host "${raw}" is not served here`);
}

/**
 * Browsers send Origin; server-to-server clients do not (absent = processed). Allowed: the
 * platform's origin, the publisher's own domain, and this request's own origin (its Host passed
 * `checkHost`, so it is not a rebound name). `null` (sandboxed frames, file:) is refused.
 */
export function checkOrigin(
  headers: Headers,
  ctx: { baseUrl: string; publisher: Publisher; scheme: string },
): void {
  const origin = headers.get("origin");
  if (origin === null) return;
  const refuse = () => new McpHttpError(403, -32000, "Forbidden: Origin is not allowed");
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw refuse();
  }
  if (origin === "null" || (url.protocol !== "https:" && url.protocol !== "http:")) throw refuse();
  const base = new URL(ctx.baseUrl);
  const host = headers.get("host");
  const ok = url.origin === base.origin ||
    (ctx.publisher.customDomain !== null && url.hostname === ctx.publisher.customDomain) ||
    (host !== null && url.origin === `${ctx.scheme}//${host.toLowerCase()}`);
  if (!ok) throw refuse();
}

/** The one scope the MCP tools need (server/surfaces/oauth/scope.ts). */
export const MCP_SCOPE = "mcp";

/** RFC 6750 §3.1: a token without the `mcp` scope gets 403 insufficient_scope. */
export function checkScope(credential: Credential | null, metadata: string) {
  if (credential?.scope == null || credential.scope.split(" ").includes(MCP_SCOPE)) return;
  throw new McpHttpError(403, -32001, `Forbidden: the token lacks the "${MCP_SCOPE}" scope`, {
    "WWW-Authenticate":
      `Bearer error="insufficient_scope", scope="${MCP_SCOPE}", resource_metadata="${metadata}"`,
  });
}

/** The 401 challenge for the MCP resource whose RFC 9728 metadata is at `metadata`. */
export function unauthorized(
  metadata: string,
  problem?: { error: "invalid_token" | "invalid_request"; description: string },
): McpHttpError {
  let challenge = `Bearer resource_metadata="${metadata}"`;
  if (problem) {
    challenge += `, error="${problem.error}", error_description="${problem.description}"`;
  }
  return new McpHttpError(
    401,
    -32001,
    problem ? `Unauthorized: ${problem.description}` : "Unauthorized: this server requires a token",
    { "WWW-Authenticate": challenge },
  );
}

/** Before the credential: the Host and Origin checks, and POST or DELETE only. */
export function transportChecks(baseUrl: string): MiddlewareHandler<PublishedEnv> {
  return async (c, next) => {
    const ctx = { baseUrl, publisher: c.get("publisher"), scheme: new URL(c.req.url).protocol };
    checkHost(c.req.raw.headers, ctx);
    checkOrigin(c.req.raw.headers, ctx);
    if (c.req.method !== "POST" && c.req.method !== "DELETE") {
      // No standalone SSE stream: server-initiated messages would tie a session to one node.
      throw new McpHttpError(405, -32000, "Method not allowed", { Allow: "POST, DELETE" });
    }
    await next();
  };
}

/** After the credential: a token without the `mcp` scope is refused (checkScope). */
export function scopeCheck(
  metadataOf: (c: Context<AppEnv>) => string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    checkScope(c.get("credential"), metadataOf(c));
    await next();
  };
}

/** MCP's words for a refusal of the envelope (server/platform/envelope.ts). */
export function refusalError(r: EnvelopeRefusal, metadata: string): McpHttpError {
  switch (r.kind) {
    case "unknown_publisher":
      return new McpHttpError(
        404,
        -32001,
        r.via === "host"
          ? `No publisher serves MCP at ${r.host.slice(0, 100)}`
          : "No MCP server has that publisher id",
      );
    case "key_in_url":
      // MCP authorization spec: tokens MUST NOT travel in the query string (logs, caches, Referer).
      return unauthorized(metadata, {
        error: "invalid_request",
        description: "Send the token in the Authorization header, never in the URL",
      });
    case "unreachable":
      return unauthorized(metadata);
    case "bad_credential":
      // Every bad credential gets the same invalid_token 401, whether or not auth is required: a
      // wrong token is never silently downgraded to anonymous access.
      return unauthorized(metadata, {
        error: "invalid_token",
        description:
          "The access token is missing, malformed, expired, revoked or for another server",
      });
    case "bad_license":
      // The Crawler Authorization Protocol's form (docs/decisions/rsl.md).
      return new McpHttpError(r.license.status, -32001, `Unauthorized: ${r.license.message}`, {
        "WWW-Authenticate": licenseChallenge(r.license.error, r.license.message),
      });
    case "body_too_large":
      return new McpHttpError(413, -32000, "Payload too large: the limit is 1 MiB");
  }
}
