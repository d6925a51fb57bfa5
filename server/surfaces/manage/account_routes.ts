/**
 * Publisher accounts (docs/DESIGN.md §6), mounted at /api/publishers: signup, login and logout,
 * and the password reset (docs/decisions/email.md).
 * Nothing here needs a signed-in publisher; everything that does is under /api/publisher
 * (server/surfaces/manage/routes.ts).
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { clientAddress, limitSignIns, slowSignIns, throttle } from "../../platform/throttle.ts";
import { createPublisherAccount } from "./accounts.ts";
import { SESSION_COOKIE } from "../../domain/accounts/session_cookie.ts";
import {
  LIMITS,
  logIn,
  logOut,
  SESSION_TTL_MS,
  sessionCookieOptions,
} from "../../domain/accounts/login.ts";
import { hashPassword } from "../../domain/accounts/passwords.ts";
import { loginSchema, signupSchema } from "./schemas.ts";
import { json } from "./body.ts";
import { PUBLISHER_ACCOUNTS } from "../../domain/accounts/password_reset.ts";
import { passwordResetRoutes } from "../../domain/accounts/password_reset_routes.ts";

/** Routes for signup, login and logout. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  app.route("/", passwordResetRoutes(deps, { accounts: PUBLISHER_ACCOUNTS, json }));

  // The throttles run before the body is read, as the budget counts attempts, good or bad.
  app.post(
    "/signup",
    async (c, next) => {
      await throttle(deps, `signup:ip:${clientAddress(c)}`, LIMITS.signupPerIp);
      await next();
    },
    json(signupSchema),
    async (c) => {
      const input = c.req.valid("json");
      const { publisher, apiKey } = await createPublisherAccount(db, {
        name: input.name,
        slug: input.slug,
        email: input.email,
        owner: { email: input.email, passwordHash: await hashPassword(input.password) },
      }, { now: deps.clock.now() });
      c.header("Cache-Control", "no-store");
      return c.json({ publisherId: publisher.id, slug: publisher.slug, apiKey }, 201);
    },
  );

  app.post(
    "/login",
    async (c, next) => {
      await limitSignIns(deps, c, "login");
      await next();
    },
    json(loginSchema),
    async (c) => {
      const input = c.req.valid("json");
      const session = await slowSignIns(
        deps,
        c,
        "login",
        input.email,
        () => logIn(db, input, { now: deps.clock.now() }),
      );
      setCookie(
        c,
        SESSION_COOKIE,
        session.token,
        sessionCookieOptions(deps.config, SESSION_TTL_MS / 1000),
      );
      c.header("Cache-Control", "no-store");
      return c.json({
        publisherId: session.publisherId,
        csrfToken: session.csrfToken,
        expiresAt: new Date(session.expiresAt).toISOString(),
      });
    },
  );

  // Idempotent and harmless without a session; SameSite=Lax keeps other sites from posting it.
  app.post("/logout", async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await logOut(db, token);
    deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(deps.config, 0));
    return c.body(null, 204);
  });

  return app;
}
