/**
 * Buyer authentication for the marketplace API (docs/SPEC.md "Authentication" 1): `Authorization:
 * Bearer mk_...`, or the buyer portal's session cookie (issue 12 part 2). Unknown, revoked and
 * malformed keys, and unknown or expired sessions, get the one identical 401 (server/platform/identity.ts);
 * both are looked up in the store on every request, so a rotation or a sign-out is seen by every
 * node on the very next request. Keys in the URL are refused so they never reach access logs
 * (docs/TEST-PLAN.md 5.6). A cookie request that changes state must carry the session's CSRF token,
 * as on the management API (server/surfaces/manage/auth.ts), and its answer is never CORS-open
 * (server/surfaces/marketplace/routes.ts).
 */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { Buyer } from "../../../store/buyers.ts";
import { findBuyerSession } from "../../../store/buyer_sessions.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { buyerForKey, invalidKeyError, keyInUrl, presentation } from "../../platform/identity.ts";
import { BUYER_SESSION_COOKIE, requireCsrf } from "../../domain/accounts/session_cookie.ts";
import { hashSecret } from "../../platform/secrets.ts";

/** Name of the buyer portal's session cookie. */
export { BUYER_SESSION_COOKIE };

/**
 * What `requireBuyer()` puts on `c.var` for the routes it is attached to: the marketplace
 * interleaves public and buyer routes under one prefix, so it goes on each buyer route, whose
 * handler then has its buyer.
 */
export type BuyerEnv = AppEnv & { Variables: { buyer: Buyer } };

/**
 * Requires a live buyer key or session and puts the buyer in `c.get("buyer")` (and the session, if
 * that is what authenticated, in `c.get("buyerSession")`). The Authorization header wins when both
 * are sent.
 */
export function requireBuyer(deps: AppDeps) {
  return createMiddleware<BuyerEnv>(async (c, next) => {
    if (keyInUrl(new URL(c.req.url))) {
      throw new AppError(
        401,
        "api_key_in_url",
        "API keys are accepted only in the Authorization header (Bearer), never in the URL",
        { "WWW-Authenticate": 'Bearer realm="folio"' },
      );
    }
    const header = c.req.header("authorization");
    const cookie = header === undefined ? getCookie(c, BUYER_SESSION_COOKIE) : undefined;
    if (cookie) {
      const found = await findBuyerSession(deps.store.db, await hashSecret(cookie), {
        now: deps.clock.now(),
      });
      if (!found) throw invalidKeyError();
      requireCsrf(c, found.session.csrfToken);
      c.set("buyer", found.buyer);
      c.set("buyerSession", found.session);
      return await next();
    }
    const { presented, token } = presentation(header);
    if (presented !== "buyer_key" || token === null) throw invalidKeyError();
    c.set("buyer", await buyerForKey(deps.store.db, token));
    await next();
  });
}
