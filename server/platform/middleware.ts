/** Cross-cutting HTTP concerns: request ids, the error handler, the host of a request. */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError, errorBody } from "./errors.ts";
import { randomBase62 } from "./secrets.ts";

/**
 * Gives every request an id (a sane inbound X-Request-Id is kept) and echoes it back; the app's
 * one global middleware, so it also gives a HEAD answer its GET body's length (`headLength()`).
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  const length = headLength();
  return async (c, next) => {
    const inbound = c.req.header("x-request-id");
    const id = inbound && /^[\w.-]{8,64}$/.test(inbound) ? inbound : `req_${randomBase62(16)}`;
    c.set("requestId", id);
    // Set before the handler, where c.json() picks it up: set after, on the finished Response,
    // Hono copies the whole Response to add one header. A Response built by hand gets it after.
    c.header("X-Request-Id", id);
    await length(c, next);
    if (!c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", id);
  };
}

/**
 * A HEAD answer carries the Content-Length its GET body would have, or none (RFC 9110 section
 * 8.6). Hono answers HEAD with the GET route's response minus its body, which Deno then sends
 * as `Content-Length: 0`; so the length is taken from the body here, before Hono drops it. An
 * event stream has no length to state: `withoutLength()` makes Deno send none.
 */
export function headLength(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method !== "HEAD" || res.body === null || res.headers.has("content-length")) return;
    if (isEventStream(res)) {
      await res.body.cancel();
      return;
    }
    const length = (await res.arrayBuffer()).byteLength;
    const headers = new Headers(res.headers);
    headers.set("content-length", String(length));
    c.res = new Response(null, { status: res.status, statusText: res.statusText, headers });
  };
}

function isEventStream(res: Response): boolean {
  return (res.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/** A HEAD answer whose length cannot be known gets an empty stream: Deno then states no length. */
export function withoutLength(req: Request, res: Response): Response {
  if (req.method !== "HEAD" || res.headers.has("content-length") || !isEventStream(res)) return res;
  return new Response(new ReadableStream({ start: (c) => c.close() }), res);
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
