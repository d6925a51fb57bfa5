/**
 * Who is using a portal (the publisher console, the buyer portal). Signed-in pages ask the
 * portal's session API who the session cookie belongs to and send a visitor without one to the
 * sign-in page. The forms used before there is a session (sign up, sign in) carry a double-submit
 * token instead, so another site cannot sign a visitor into an account of its choosing (login
 * CSRF).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Who } from "../../../ui/console/shell.tsx";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { randomBase62, timingSafeEqual } from "../../platform/secrets.ts";
import { type ApiFetch, callApi } from "./api.ts";

/** A portal's Hono environment: the app's, plus the signed-in visitor `W`. */
export interface PortalEnv<W> {
  Variables: AppEnv["Variables"] & { who: W };
}

/** The console's Hono environment: the app's, plus the signed-in publisher user. */
export type ConsoleEnv = PortalEnv<Who>;

/** What tells the portals apart in their sessions. */
export interface PortalSite {
  /** Where the portal is mounted; sign-in returns only below it. */
  home: string;
  /** The API route that says who the session cookie belongs to (with its CSRF token). */
  sessionApi: string;
  /** The double-submit cookie of the portal's sign-up and sign-in forms. */
  formCookie: string;
}

/** The publisher console. */
export const PUBLISHER_SITE: PortalSite = {
  home: "/publisher",
  sessionApi: "/api/publisher/session",
  formCookie: "folio_console_csrf",
};

/** Signed-in pages: the visitor from the API, or a redirect to sign in and come back. */
export function requireVisitor<W extends { csrfToken: string | null }>(
  api: ApiFetch,
  site: PortalSite,
): MiddlewareHandler<PortalEnv<W>> {
  return async (c, next) => {
    const answer = await callApi<W>(c, api, site.sessionApi);
    if (answer.status === 401 || !answer.body?.csrfToken) {
      const back = c.req.method === "GET" ? new URL(c.req.url).pathname : site.home;
      return c.redirect(`${site.home}/login?next=${encodeURIComponent(back)}`, 303);
    }
    if (!answer.ok) throw new Error(`GET ${site.sessionApi} answered ${answer.status}`);
    c.set("who", answer.body);
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

/** Only same-site paths under the portal may be returned to after sign-in (no open redirect). */
export function safeNext(next: unknown, site: PortalSite): string {
  const home = site.home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return typeof next === "string" && new RegExp(`^${home}(\\/[A-Za-z0-9/_-]*)?$`).test(next)
    ? next
    : site.home;
}
