/**
 * Who is using a portal (the publisher console, the buyer portal). The portal asks its session
 * API who the session cookie belongs to at most once per request (`askWhoOnce`, kept in `c.var`);
 * signed-in pages send a visitor without one to the sign-in page. The forms used before there is
 * a session (sign up, sign in) carry a double-submit token instead, so another site cannot sign a
 * visitor into an account of its choosing (login CSRF).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { z } from "zod";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { randomBase62, timingSafeEqual } from "../../platform/secrets.ts";
import { sessionSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "./api.ts";

/** A session the portal can act for: one opened by signing in, so it has a CSRF token. */
type Signed<S extends SessionSchema> = z.output<S> & { csrfToken: string };

/** What a portal's session API answers: at least the session's CSRF token (null for a key). */
type SessionSchema = z.ZodType<{ csrfToken: string | null }>;

/** A portal's Hono environment before sign-in is required: who asked, looked up once. */
export interface VisitorEnv<W> {
  Variables: AppEnv["Variables"] & {
    /** The signed-in visitor, or null; the session API is asked on the first call only. */
    signedIn: () => Promise<W | null>;
  };
}

/** A signed-in portal page's Hono environment: the visitor `W` is known. */
export interface PortalEnv<W> {
  Variables: VisitorEnv<W>["Variables"] & { who: W };
}

/** What tells the portals apart in their sessions. */
export interface PortalSite<S extends SessionSchema = SessionSchema> {
  /** Where the portal is mounted; sign-in returns only below it. */
  home: string;
  /** The API route that says who the session cookie belongs to (with its CSRF token). */
  sessionApi: string;
  /** Its answer's schema, the one the OpenAPI document gives. */
  sessionSchema: S;
  /** The double-submit cookie of the portal's sign-up and sign-in forms. */
  formCookie: string;
  /** A same-site page outside the portal that sign-in may return to, with its query (OAuth consent). */
  alsoReturnsTo?: string;
}

/** The publisher console. */
export const PUBLISHER_SITE = {
  home: "/publisher",
  sessionApi: "/api/publisher/session",
  sessionSchema,
  formCookie: "folio_console_csrf",
} satisfies PortalSite;

/** The signed-in publisher user, as GET /api/publisher/session answers. */
export type ConsoleVisitor = Signed<typeof sessionSchema>;

/** The console's Hono environment: the app's, plus the signed-in publisher user. */
export type ConsoleEnv = PortalEnv<ConsoleVisitor>;

/**
 * The whole portal: `c.var.signedIn()` asks the session API who is signed in the first time a
 * handler or middleware wants to know, and hands every later caller in the request that answer.
 */
export function askWhoOnce<W extends Signed<S>, S extends SessionSchema>(
  api: ApiFetch,
  site: PortalSite<S>,
): MiddlewareHandler<VisitorEnv<W>> {
  return async (c, next) => {
    let asked: Promise<W | null> | undefined;
    c.set("signedIn", () => asked ??= lookUp(c, api, site));
    await next();
  };
}

async function lookUp<W, S extends SessionSchema>(
  c: Context,
  api: ApiFetch,
  site: PortalSite<S>,
): Promise<W | null> {
  const answer = await callApi(c, api, site.sessionApi, site.sessionSchema);
  // No session (401), or a key instead of one (no CSRF token): the portal cannot act for it; a
  // session opened by signing in has both its token and its expiry.
  return answer.ok && answer.body.csrfToken ? answer.body as W : null;
}

/** Signed-in pages: the visitor, or a redirect to sign in and come back. */
export function requireVisitor<W>(site: PortalSite): MiddlewareHandler<PortalEnv<W>> {
  return async (c, next) => {
    const who = await c.var.signedIn();
    if (!who) {
      const back = c.req.method === "GET" ? new URL(c.req.url).pathname : site.home;
      return c.redirect(`${site.home}/login?next=${encodeURIComponent(back)}`, 303);
    }
    c.set("who", who);
    await next();
  };
}

/** The double-submit token of the sign-up and sign-in forms: reused, or set now. */
export function formToken(
  c: Context,
  deps: Pick<AppDeps, "config">,
  site: PortalSite,
): string {
  const existing = getCookie(c, site.formCookie);
  const token = existing && /^[0-9A-Za-z]{32}$/.test(existing) ? existing : randomBase62(32);
  setCookie(c, site.formCookie, token, {
    path: site.home,
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.config.baseUrl.startsWith("https:"),
    maxAge: 3600,
  });
  return token;
}

/** Whether a sign-up or sign-in form came back with the token its page set. */
export function formTokenMatches(
  c: Context,
  field: unknown,
  site: PortalSite,
): boolean {
  const cookie = getCookie(c, site.formCookie);
  return typeof field === "string" && !!cookie && field.length === cookie.length &&
    timingSafeEqual(cookie, field);
}

/**
 * Only same-site paths under the portal (or its `alsoReturnsTo` page, with a query of URL
 * characters) may be returned to after sign-in (no open redirect).
 */
export function safeNext(next: unknown, site: PortalSite): string {
  if (typeof next !== "string") return site.home;
  const home = site.home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`^${home}(\\/[A-Za-z0-9/_-]*)?$`).test(next)) return next;
  const also = site.alsoReturnsTo;
  const query = next.slice((also ?? "").length + 1);
  return also && next.startsWith(`${also}?`) && /^[A-Za-z0-9\-._~%&=+]*$/.test(query)
    ? next
    : site.home;
}
