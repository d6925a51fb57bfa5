/**
 * Who is managing a publisher: `Authorization: Bearer pk_...` (publisher key) or the dashboard
 * session cookie. Cookie-authenticated requests that change state must also carry the session's
 * CSRF token in `X-CSRF-Token`, since browsers attach cookies to cross-site requests.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { findPublisherIdByKeyHash, getPublisher } from "../../store/publishers.ts";
import { findSession } from "../../store/sessions.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError } from "../errors.ts";
import { hashSecret, timingSafeEqual, wellFormed } from "../secrets.ts";

/** Name of the dashboard session cookie. */
export const SESSION_COOKIE = "folio_session";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The one 401 every bad publisher credential gets. */
export function unauthenticated(): AppError {
  return new AppError(
    401,
    "unauthenticated",
    "Sign in, or send a publisher key: Authorization: Bearer pk_...",
    { "WWW-Authenticate": 'Bearer realm="folio-publisher"' },
  );
}

/**
 * A cookie-authenticated request that changes state must echo the session's CSRF token in
 * `X-CSRF-Token` (the buyer portal's sessions too, server/marketplace/auth.ts); 403 otherwise.
 */
export function requireCsrf(c: Context, sessionToken: string): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const csrf = c.req.header("x-csrf-token") ?? "";
  if (!timingSafeEqual(csrf, sessionToken)) {
    throw new AppError(403, "csrf_failed", "X-CSRF-Token is missing or does not match the session");
  }
}

/** Requires a publisher credential and puts the publisher in `c.get("publisher")`. */
export function requirePublisher(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.req.header("authorization");
    let publisherId: string | null = null;
    if (auth) {
      const m = /^Bearer +(\S+) *$/i.exec(auth);
      if (!m || !wellFormed(m[1], "pk")) throw unauthenticated();
      publisherId = await findPublisherIdByKeyHash(deps.store.db, await hashSecret(m[1]));
    } else {
      const token = getCookie(c, SESSION_COOKIE);
      if (!token) throw unauthenticated();
      const session = await findSession(deps.store.db, await hashSecret(token), {
        now: deps.clock.now(),
      });
      if (!session) throw unauthenticated();
      requireCsrf(c, session.csrfToken);
      publisherId = session.publisherId;
      c.set("session", session);
    }
    const publisher = publisherId ? await getPublisher(deps.store.db, publisherId) : null;
    if (!publisher) throw unauthenticated();
    c.set("publisher", publisher);
    await next();
  };
}
