/** HTTP helpers shared by the OAuth routes: body reading, CORS, and what pages must not be. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { bodyLimited, JSON_BODY_LIMIT } from "../../platform/envelope.ts";
import { AppError } from "../../platform/errors.ts";
import { clientAddress, throttle } from "../../platform/throttle.ts";
import { OAuthError } from "./errors.ts";

/** CORS for endpoints browser MCP clients call without cookies (docs/TEST-PLAN.md 5.16). */
export const OPEN_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, MCP-Protocol-Version",
  "Access-Control-Max-Age": "600",
};

/**
 * Pages that must not be cached nor read cross-origin: no CORS headers at all, and this. Framing
 * (clickjacking the consent button) and Referer (leaking the request) are refused by the page
 * headers of the authorization endpoint (authorize_routes.ts, server/platform/security_headers.ts).
 */
export const PAGE_HEADERS = { "Cache-Control": "no-store" };

/**
 * The body limit of an OAuth endpoint (docs/TEST-PLAN.md 1.34), refused with the endpoint's own
 * RFC error code (`invalid_client_metadata` at registration, `invalid_request` elsewhere).
 */
export function oauthBodyLimit(error: string): MiddlewareHandler<AppEnv> {
  return bodyLimited(JSON_BODY_LIMIT, () => new OAuthError(error, "body: larger than 64 KiB"));
}

/**
 * Per-address limits on the token and authorization endpoints (docs/TEST-PLAN.md 5.10), counted in
 * the store so every node shares one budget; registration has its own (register.ts).
 */
export const LIMITS = {
  token: { limit: 120, windowMs: 60_000 },
  authorize: { limit: 60, windowMs: 60_000 },
} as const;

/**
 * Counts a request against `rule` for its address; past the limit, the endpoint's RFC error with
 * HTTP 429 and Retry-After (`too_many_requests` at the token endpoint, RFC 6749 §4.1.2.1
 * `temporarily_unavailable` on the authorization page).
 */
export function oauthThrottle(
  deps: Pick<AppDeps, "store" | "clock">,
  name: keyof typeof LIMITS,
  error: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      await throttle(deps, `oauth-${name}:ip:${clientAddress(c)}`, LIMITS[name]);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 429) throw err;
      throw new OAuthError(error, err.message, 429, err.headers);
    }
    await next();
  };
}

/** The (size-limited) body as text, refusing the wrong media type. */
export async function readBody(
  c: Context,
  options: { type: string; error: string },
): Promise<string> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== options.type) {
    await c.req.raw.body?.cancel();
    throw new OAuthError(options.error, `Content-Type: must be ${options.type}`);
  }
  return await c.req.text();
}

/** A form body whose parameters each appear at most once (RFC 6749 §3.2). */
export function parseForm(text: string): URLSearchParams {
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthError("invalid_request", `${key}: must not be repeated`);
    seen.add(key);
  }
  return form;
}
