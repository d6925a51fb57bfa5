/**
 * The JSON-RPC 2.0 envelope of the A2A endpoint (JSON-RPC 2.0 §4-5; A2A v1.0 §9 and §5.4 error
 * codes). Decisions where the specs leave room:
 * - Bodies over 1 MiB are refused with HTTP 413 before parsing (Content-Length, then while
 *   streaming; server/platform/envelope.ts), with a JSON-RPC -32600 error body.
 * - Batches (JSON arrays) are refused with one -32600 error: every A2A call is a licensed,
 *   billable read, so one call per HTTP request keeps logging, latency and retries per call (the
 *   MCP spec dropped batching for the same reasons; A2A defines none).
 * - Notifications (no `id` member) get no reply (JSON-RPC 2.0 §4.1) and are not executed: A2A
 *   defines no notifications from client to agent, so running one would bill a read whose result
 *   nobody can see.
 */

/** JSON-RPC and A2A error codes. */
export const CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Implementation-defined server error: authentication failed (HTTP 401). */
  unauthenticated: -32000,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  extendedCardNotConfigured: -32007,
  versionNotSupported: -32009,
} as const;

/** A JSON-RPC id. */
export type RpcId = string | number | null;

/** A JSON-RPC error response. */
export interface RpcErrorResponse {
  jsonrpc: "2.0";
  id: RpcId;
  error: { code: number; message: string; data?: unknown };
}

/** What a request body turned out to be. */
export type Envelope =
  | { kind: "invalid"; response: RpcErrorResponse; method: string | null }
  | { kind: "notification"; method: string }
  | { kind: "call"; id: RpcId; method: string; params: Record<string, unknown> };

/** A JSON-RPC error response object. */
export function rpcError(
  id: RpcId,
  code: number,
  message: string,
  data?: unknown,
): RpcErrorResponse {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** Parses and checks one JSON-RPC request (JSON-RPC 2.0 §4 and §5.1). */
export function parseEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return invalid(null, CODES.parseError, "Parse error: the body is not valid JSON");
  }
  if (Array.isArray(body)) {
    return invalid(
      null,
      CODES.invalidRequest,
      "Invalid Request: batch requests are not supported; send one JSON-RPC request per HTTP request",
    );
  }
  if (typeof body !== "object" || body === null) {
    return invalid(null, CODES.invalidRequest, "Invalid Request: the body must be a JSON object");
  }
  const req = body as Record<string, unknown>;
  const idOk = !("id" in req) || req.id === null || typeof req.id === "string" ||
    (typeof req.id === "number" && Number.isInteger(req.id));
  const id = idOk && "id" in req ? req.id as RpcId : null;
  if (!idOk) {
    return invalid(
      null,
      CODES.invalidRequest,
      "Invalid Request: id must be a string, an integer or null",
    );
  }
  if (req.jsonrpc !== "2.0") {
    return invalid(id, CODES.invalidRequest, 'Invalid Request: jsonrpc must be exactly "2.0"');
  }
  if (typeof req.method !== "string" || req.method.length === 0) {
    return invalid(id, CODES.invalidRequest, "Invalid Request: method must be a non-empty string");
  }
  const method = req.method;
  if (!("id" in req)) return { kind: "notification", method };
  const params = req.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return {
      kind: "invalid",
      method,
      response: rpcError(id, CODES.invalidParams, "Invalid params: params must be an object"),
    };
  }
  return { kind: "call", id, method, params: params as Record<string, unknown> };
}

function invalid(id: RpcId, code: number, message: string): Envelope {
  return { kind: "invalid", response: rpcError(id, code, message), method: null };
}
