/** Cross-cutting HTTP concerns: request ids, the error handler, the host of a request. */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError, errorBody } from "./errors.ts";
import { randomBase62 } from "./secrets.ts";

/** Gives every request an id (a sane inbound X-Request-Id is kept) and echoes it back. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const inbound = c.req.header("x-request-id");
    const id = inbound && /^[\w.-]{8,64}$/.test(inbound) ? inbound : `req_${randomBase62(16)}`;
    c.set("requestId", id);
    // Set before the handler, where c.json() picks it up: set after, on the finished Response,
    // Hono copies the whole Response to add one header. A Response built by hand gets it after.
    c.header("X-Request-Id", id);
    await next();
    if (!c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", id);
  };
}

/** The one error handler: known errors become their JSON body; anything else a bare 500. */
export function onError<E extends AppEnv = AppEnv>(deps: AppDeps): ErrorHandler<E> {
  return (err, c) => {
    const id = c.get("requestId");
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.code, err.message, err.param), err.status);
    }
    if (err instanceof HTTPException) {
      // Hono raises these for malformed input it parses itself (bodies, limits).
      const code = err.status === 413 ? "payload_too_large" : "bad_request";
      return c.json(errorBody(code, err.message || "The request could not be read"), err.status);
    }
    deps.log.error("Unhandled error", {
      requestId: id,
      path: c.req.path,
      error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack}` : String(err),
    });
    // Never leak internals: the request id lets an operator find the stack in the log.
    return c.json(
      errorBody("internal_error", `Something went wrong on our side (request ${id})`),
      500,
    );
  };
}

/** The request's Host, lower-cased (with its port; publisher lookups ignore the port). */
export function hostOf(c: Context): string {
  return (c.req.header("host") ?? new URL(c.req.url).host).toLowerCase();
}
