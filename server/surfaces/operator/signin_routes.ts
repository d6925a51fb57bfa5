/**
 * Signing in to the operator API (docs/decisions/operator.md "Sign-in"), before `requireOperator`:
 * the password step opens a `password`-stage session; the second factor (or, the first time,
 * enrolment) makes it full. Each step is throttled per address and slowed per account like every
 * sign-in (server/platform/throttle.ts), and after the password step every POST carries the
 * session's CSRF token.
 */
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { findOperatorSession, getOperator } from "../../../store/operators.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { sessionCookieOptions } from "../../domain/accounts/login.ts";
import { requireCsrf } from "../../domain/accounts/session_cookie.ts";
import { passwordResetRoutes } from "../../domain/accounts/password_reset_routes.ts";
import {
  confirmEnrolment,
  OPERATOR_SESSION_COOKIE,
  operatorResetAccounts,
  passSecondFactor,
  PASSWORD_STAGE_TTL_MS,
  SESSION_TTL_MS,
  signInWithPassword,
  signOutOperator,
  startEnrolment,
} from "../../domain/operators/accounts.ts";
import { limitSignIns, slowSignIns } from "../../platform/throttle.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { operatorUnauthenticated } from "./auth.ts";
import { json } from "./body.ts";
import { confirmSchema, operatorLoginSchema, secondFactorSchema } from "./schemas.ts";

/** The operator cookie: Strict, since nothing links into the operator console from elsewhere. */
function cookieOptions(deps: AppDeps, maxAgeMs: number) {
  return {
    ...sessionCookieOptions(deps.config, Math.floor(maxAgeMs / 1000)),
    sameSite: "Strict" as const,
  };
}

/** The session this request is signing in with (either stage), its token, and its CSRF check. */
async function signingIn(deps: AppDeps, c: Context) {
  const token = getCookie(c, OPERATOR_SESSION_COOKIE);
  if (!token) throw operatorUnauthenticated("Sign in with your email and password first");
  const session = await findOperatorSession(
    deps.store.db,
    await hashSecret(token),
    deps.clock.now(),
  );
  if (!session) {
    throw operatorUnauthenticated("The sign-in expired: start again with your password");
  }
  requireCsrf(c, session.csrfToken);
  return { ...session, token };
}

/** The sign-in routes. */
export function signInRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;

  app.post(
    "/login",
    async (c, next) => {
      await limitSignIns(deps, c, "operator-login");
      await next();
    },
    json(operatorLoginSchema),
    async (c) => {
      const input = c.req.valid("json");
      const opened = await slowSignIns(
        deps,
        c,
        "operator-login",
        input.email,
        () => signInWithPassword(db, input, { now: deps.clock.now() }),
      );
      setCookie(
        c,
        OPERATOR_SESSION_COOKIE,
        opened.token,
        cookieOptions(deps, PASSWORD_STAGE_TTL_MS),
      );
      c.header("Cache-Control", "no-store");
      return c.json({
        operatorId: opened.operatorId,
        next: opened.next,
        csrfToken: opened.csrfToken,
        expiresAt: new Date(opened.expiresAt).toISOString(),
      });
    },
  );

  app.get("/login", async (c) => {
    const session = await signingIn(deps, c);
    const operator = await getOperator(db, session.operatorId);
    if (!operator) throw operatorUnauthenticated();
    c.header("Cache-Control", "no-store");
    return c.json({
      operatorId: operator.id,
      email: operator.email,
      stage: session.stage,
      next: session.stage === "full" ? "done" : operator.totpSecret ? "second_factor" : "enrol",
      csrfToken: session.csrfToken,
      expiresAt: new Date(session.expiresAt).toISOString(),
    });
  });

  app.post(
    "/login/second-factor",
    async (c, next) => {
      await limitSignIns(deps, c, "operator-totp");
      await next();
    },
    json(secondFactorSchema),
    async (c) => {
      const session = await signingIn(deps, c);
      const input = c.req.valid("json");
      const done = await slowSignIns(
        deps,
        c,
        "operator-totp",
        session.operatorId,
        () => passSecondFactor(db, session, input, { now: deps.clock.now() }),
      );
      setCookie(c, OPERATOR_SESSION_COOKIE, session.token, cookieOptions(deps, SESSION_TTL_MS));
      c.header("Cache-Control", "no-store");
      return c.json({
        csrfToken: session.csrfToken,
        expiresAt: new Date(done.expiresAt).toISOString(),
      });
    },
  );

  // The secret is shown while enrolment is unconfirmed (the same one each time); never after.
  app.post("/enrolment", async (c) => {
    const session = await signingIn(deps, c);
    const operator = await getOperator(db, session.operatorId);
    if (!operator) throw operatorUnauthenticated();
    c.header("Cache-Control", "no-store");
    return c.json(await startEnrolment(db, operator));
  });

  app.post(
    "/enrolment/confirm",
    async (c, next) => {
      await limitSignIns(deps, c, "operator-totp");
      await next();
    },
    json(confirmSchema),
    async (c) => {
      const session = await signingIn(deps, c);
      const { code } = c.req.valid("json");
      const done = await slowSignIns(
        deps,
        c,
        "operator-totp",
        session.operatorId,
        () => confirmEnrolment(db, session, code, { now: deps.clock.now() }),
      );
      setCookie(c, OPERATOR_SESSION_COOKIE, session.token, cookieOptions(deps, SESSION_TTL_MS));
      c.header("Cache-Control", "no-store");
      return c.json({
        recoveryCodes: done.recoveryCodes,
        csrfToken: session.csrfToken,
        expiresAt: new Date(done.expiresAt).toISOString(),
      });
    },
  );

  // "Forgot password": a link by email (w6-email's module), then the second factor as always.
  app.route("/", passwordResetRoutes(deps, { accounts: operatorResetAccounts(deps.clock), json }));

  // Idempotent and harmless without a session; the Strict cookie keeps other sites from posting it.
  app.post("/logout", async (c) => {
    const token = getCookie(c, OPERATOR_SESSION_COOKIE);
    if (token) await signOutOperator(db, token);
    deleteCookie(c, OPERATOR_SESSION_COOKIE, cookieOptions(deps, 0));
    return c.body(null, 204);
  });

  return app;
}
