/**
 * The session cookie's name and the CSRF check every cookie-authenticated, state-changing request
 * passes: the publisher dashboard's (server/surfaces/manage/auth.ts) and the buyer portal's
 * (server/surfaces/marketplace/auth.ts) alike, since browsers attach cookies to cross-site requests.
 */
import type { Context } from "hono";
import { AppError } from "../../platform/errors.ts";
import { timingSafeEqual } from "../../platform/secrets.ts";

/** Name of the dashboard session cookie. */
export const SESSION_COOKIE = "folio_session";

/** Name of the buyer portal's session cookie (read by the marketplace API and the OAuth consent). */
export const BUYER_SESSION_COOKIE = "folio_buyer_session";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie-authenticated request that changes state must echo the session's CSRF token in
 * `X-CSRF-Token`; 403 otherwise.
 */
export function requireCsrf(c: Context, sessionToken: string): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const csrf = c.req.header("x-csrf-token") ?? "";
  if (!timingSafeEqual(csrf, sessionToken)) {
    throw new AppError(403, "csrf_failed", "X-CSRF-Token is missing or does not match the session");
  }
}
