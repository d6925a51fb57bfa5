/**
 * Who is managing a publisher: `Authorization: Bearer pk_...` (publisher key) or the dashboard
 * session cookie. Cookie-authenticated requests that change state must also carry the session's
 * CSRF token in `X-CSRF-Token`, since browsers attach cookies to cross-site requests.
 */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import {
  findPublisherIdByKeyHash,
  getPublisher,
  type Publisher,
} from "../../../store/publishers.ts";
import { findSession } from "../../../store/sessions.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { hashSecret, wellFormed } from "../../platform/secrets.ts";
import { requireCsrf, SESSION_COOKIE } from "../../domain/accounts/session_cookie.ts";

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
 * The management API's env: `requirePublisher()` runs first on the whole sub-app, so every route
 * behind it has its publisher (the sub-apps mounted there are `Hono<ManageEnv>`).
 */
export type ManageEnv = AppEnv & { Variables: { publisher: Publisher } };

/** Requires a publisher credential and puts the publisher in `c.get("publisher")`. */
export function requirePublisher(deps: AppDeps) {
  return createMiddleware<ManageEnv>(async (c, next) => {
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
  });
}
