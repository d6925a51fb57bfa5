/**
 * Buyer authentication for the marketplace API (docs/SPEC.md "Authentication" 1): `Authorization:
 * Bearer mk_...` only. Unknown, revoked and malformed keys get the one identical 401
 * (server/identity.ts); the key is looked up in the store on every request, so a rotation is seen
 * by every node on the very next request. Keys in the URL are refused so they never reach access
 * logs (docs/TEST-PLAN.md 5.6), and cookies are never read here, so cross-origin calls carry no
 * ambient credential.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError } from "../errors.ts";
import { buyerForKey, invalidKeyError, keyInUrl, presentation } from "../identity.ts";

/** Requires a live buyer key and puts the buyer in `c.var.buyer`. */
export function requireBuyer(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (keyInUrl(new URL(c.req.url))) {
      throw new AppError(
        401,
        "api_key_in_url",
        "API keys are accepted only in the Authorization header (Bearer), never in the URL",
        { "WWW-Authenticate": 'Bearer realm="folio"' },
      );
    }
    const { presented, token } = presentation(c.req.header("authorization"));
    if (presented !== "buyer_key" || token === null) throw invalidKeyError();
    c.set("buyer", await buyerForKey(deps.store.db, token));
    await next();
  };
}
