/**
 * The buyer portal's sign-in and account (issue 12 part 2): POST/GET/DELETE /session, PUT
 * /password, GET /account and the password reset (docs/decisions/email.md) under /api/marketplace. Inputs are the zod schemas of schemas.ts
 * (the OpenAPI document's too); sign-in is limited per address and slowed per (address, email)
 * exactly like the publisher's (server/platform/throttle.ts SIGN_IN).
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { buyerAccountFacts } from "../../../store/buyers.ts";
import { deleteBuyerSession, findBuyerSession } from "../../../store/buyer_sessions.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { requireCsrf } from "../../domain/accounts/session_cookie.ts";
import { SESSION_TTL_MS, sessionCookieOptions } from "../../domain/accounts/login.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { limitSignIns, slowSignIns } from "../../platform/throttle.ts";
import { BUYER_SESSION_COOKIE, requireBuyer } from "./auth.ts";
import { json } from "./body.ts";
import { passwordInputSchema, sessionInputSchema } from "./schemas.ts";
import { changeBuyerPassword, openBuyerSession } from "./sessions.ts";
import { BUYER_ACCOUNTS } from "../../domain/accounts/password_reset.ts";
import { passwordResetRoutes } from "../../domain/accounts/password_reset_routes.ts";

/** Session, password and account routes. */
export function sessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);
  const cookie = (maxAgeSeconds: number) => sessionCookieOptions(deps.config, maxAgeSeconds);
  app.route("/", passwordResetRoutes(deps, { accounts: BUYER_ACCOUNTS, json }));

  // JSON only (415 otherwise), so a form on another site cannot sign a visitor in (login CSRF).
  app.post("/session", json(sessionInputSchema), async (c) => {
    await limitSignIns(deps, c, "buyer-login");
    const input = c.req.valid("json");
    const open = () => openBuyerSession(db, input, { now: deps.clock.now() });
    // A key is 190 bits (ARCHITECTURE.md "Secrets"): only the per-address budget applies to it.
    const s = "email" in input
      ? await slowSignIns(deps, c, "buyer-login", input.email, open)
      : await open();
    setCookie(c, BUYER_SESSION_COOKIE, s.token, cookie(SESSION_TTL_MS / 1000));
    c.header("Cache-Control", "no-store");
    return c.json({
      buyerId: s.buyer.id,
      name: s.buyer.name,
      csrfToken: s.csrfToken,
      expiresAt: new Date(s.expiresAt).toISOString(),
    }, 201);
  });

  // With a key rather than a session there is no CSRF token and no expiry: both are null.
  app.get("/session", auth, (c) => {
    const buyer = c.get("buyer");
    const session = c.get("buyerSession");
    c.header("Cache-Control", "no-store");
    return c.json({
      buyerId: buyer.id,
      name: buyer.name,
      email: buyer.email,
      csrfToken: session?.csrfToken ?? null,
      expiresAt: session ? new Date(session.expiresAt).toISOString() : null,
    });
  });

  // Idempotent: without a live session it only clears the cookie; with one, CSRF as for any change.
  app.delete("/session", async (c) => {
    const token = getCookie(c, BUYER_SESSION_COOKIE);
    const hash = token ? await hashSecret(token) : null;
    const found = hash ? await findBuyerSession(db, hash, { now: deps.clock.now() }) : null;
    if (found) {
      requireCsrf(c, found.session.csrfToken);
      await deleteBuyerSession(db, found.session.tokenHash);
    }
    deleteCookie(c, BUYER_SESSION_COOKIE, cookie(0));
    return c.body(null, 204);
  });

  app.put("/password", auth, json(passwordInputSchema), async (c) => {
    const buyer = c.get("buyer");
    const input = c.req.valid("json");
    const change = () =>
      changeBuyerPassword(db, buyer.id, input, {
        keepSession: c.get("buyerSession")?.tokenHash ?? null,
      });
    // Guessing the current password through a stolen session is as slow as guessing it at sign-in.
    if (input.currentPassword === undefined) await change();
    else {
      await limitSignIns(deps, c, "buyer-password");
      await slowSignIns(deps, c, "buyer-password", buyer.id, change);
    }
    return c.body(null, 204);
  });

  app.get("/account", auth, async (c) => {
    const buyer = c.get("buyer");
    const facts = await buyerAccountFacts(db, buyer.id);
    c.header("Cache-Control", "no-store");
    return c.json({
      buyerId: buyer.id,
      name: buyer.name,
      email: buyer.email,
      createdAt: buyer.createdAt,
      hasPassword: facts.hasPassword,
      keyHint: facts.keyHint,
    });
  });
  return app;
}
