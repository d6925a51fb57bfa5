/**
 * Who is operating the node (docs/decisions/operator.md): `Authorization: Bearer opk_...` (an
 * operator key) or the operator console's session cookie after both sign-in steps, with the
 * session's CSRF token in `X-CSRF-Token` on every state-changing request. Publisher and buyer
 * credentials are refused with 403, whatever they are: they never stand for an operator.
 */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { findOperatorKey, findOperatorSession, getOperator } from "../../../store/operators.ts";
import type { OperatorSession } from "../../../store/operators.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { requireCsrf, SESSION_COOKIE } from "../../domain/accounts/session_cookie.ts";
import {
  OPERATOR_KEY_PREFIX,
  OPERATOR_SESSION_COOKIE,
  operatorActor,
} from "../../domain/operators/accounts.ts";
import type { Actor } from "../../domain/audit/audit.ts";
import { AppError } from "../../platform/errors.ts";
import { hashSecret, wellFormed } from "../../platform/secrets.ts";

/** The buyer portal's cookie (server/surfaces/marketplace/auth.ts), refused here by name. */
const BUYER_COOKIE = "folio_buyer_session";

/** The signed-in operator, as every operator route reads it: `c.get("operator")`. */
export interface SignedInOperator {
  id: string;
  email: string;
  via: "session" | "key";
  /** The key used, when `via` is "key". */
  keyId: string | null;
  /** The session and its cookie token, when `via` is "session". */
  session: (OperatorSession & { token: string }) | null;
  /** The operator as an audit actor: pass it to `audit()` as `actor`. */
  actor: Actor;
}

/** The operator API's env: every route behind `requireOperator()` has its operator. */
export type OperatorEnv = AppEnv & { Variables: { operator: SignedInOperator } };

/** The 401 of a missing or unknown operator credential. */
export function operatorUnauthenticated(message?: string): AppError {
  return new AppError(
    401,
    "unauthenticated",
    message ??
      "Sign in to the operator console, or send an operator key: Authorization: Bearer opk_...",
    { "WWW-Authenticate": 'Bearer realm="folio-operator"' },
  );
}

/** The 403 of a publisher's or buyer's credential on the operator API. */
function notAnOperator(): AppError {
  return new AppError(
    403,
    "forbidden",
    "This is a publisher or buyer credential: the operator API takes an operator key (opk_...) " +
      "or an operator session",
  );
}

/** Requires an operator credential and puts the operator in `c.get("operator")`. */
export function requireOperator(deps: AppDeps) {
  return createMiddleware<OperatorEnv>(async (c, next) => {
    const db = deps.store.db;
    const auth = c.req.header("authorization");
    let operatorId: string;
    let keyId: string | null = null;
    let session: SignedInOperator["session"] = null;
    if (auth) {
      const m = /^Bearer +(\S+) *$/i.exec(auth);
      const token = m?.[1] ?? "";
      if (!wellFormed(token, OPERATOR_KEY_PREFIX)) {
        throw wellFormed(token, "pk") || wellFormed(token, "mk")
          ? notAnOperator()
          : operatorUnauthenticated();
      }
      const key = await findOperatorKey(db, await hashSecret(token));
      if (!key) throw operatorUnauthenticated();
      operatorId = key.operatorId;
      keyId = key.keyId;
    } else {
      const token = getCookie(c, OPERATOR_SESSION_COOKIE);
      if (!token) {
        if (getCookie(c, SESSION_COOKIE) || getCookie(c, BUYER_COOKIE)) throw notAnOperator();
        throw operatorUnauthenticated();
      }
      const found = await findOperatorSession(db, await hashSecret(token), deps.clock.now());
      if (!found) throw operatorUnauthenticated();
      if (found.stage !== "full") {
        throw operatorUnauthenticated("Finish signing in: the second factor is still missing");
      }
      requireCsrf(c, found.csrfToken);
      operatorId = found.operatorId;
      session = { ...found, token };
    }
    const operator = await getOperator(db, operatorId);
    if (!operator) throw operatorUnauthenticated();
    c.set("operator", {
      id: operator.id,
      email: operator.email,
      via: session ? "session" : "key",
      keyId,
      session,
      actor: operatorActor(operator.id),
    });
    await next();
  });
}
