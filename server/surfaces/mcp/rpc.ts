/**
 * Request handlers that own their parameter checks. The SDK parses a request with the method's
 * schema before the handler and answers a mismatch as -32603 with zod's raw issue list; a client
 * mistake is -32602 (JSON-RPC 2.0 §5.1), named by its first bad field.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError, type ServerResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { firstProblem } from "../../platform/validate.ts";

// One envelope schema per method for the whole process: building zod schemas is costly and every
// request builds its own server (issue 15: a tenth of a tools/call went to these).
const envelopes = new Map<string, z.ZodType>();

/** Registers `handler` for `method`; params that fail `params` answer -32602. */
export function onRequest<P extends z.ZodType>(
  server: Server,
  method: string,
  params: P,
  handler: (params: z.output<P>) => Promise<ServerResult> | ServerResult,
): void {
  let loose = envelopes.get(method);
  if (!loose) {
    loose = z.object({ method: z.literal(method), params: z.unknown().optional() });
    envelopes.set(method, loose);
  }
  server.setRequestHandler(
    loose as z.ZodObject<{ method: z.ZodLiteral<string> }>,
    (request: { params?: unknown }) => {
      const parsed = params.safeParse(request.params ?? {});
      if (!parsed.success) {
        const { field, message } = firstProblem(parsed.error, "params");
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid ${method} request: ${field}: ${message}`,
        );
      }
      return handler(parsed.data);
    },
  );
}

/** A name of something the server offers: bounded, so errors can quote it. */
export const name = z.string({
  error: (issue) => issue.input === undefined ? "is required" : "must be a string",
}).min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

/** Known errors keep their message; anything else is logged and answered without internals. */
export function internal(
  ctx: { deps: Pick<AppDeps, "log">; requestId: string },
  err: unknown,
): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof AppError && err.status < 500) {
    return new McpError(ErrorCode.InvalidParams, err.message);
  }
  ctx.deps.log.error("MCP handler failed", {
    requestId: ctx.requestId,
    error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err),
  });
  return new McpError(
    ErrorCode.InternalError,
    `Something went wrong on our side (request ${ctx.requestId})`,
  );
}
