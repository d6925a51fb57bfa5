/**
 * Who is using the console. Signed-in pages ask the API who the session cookie belongs to (GET
 * /api/publisher/session) and send a visitor without one to the sign-in page. The two forms used
 * before there is a session (sign up, sign in) carry a double-submit token instead, so another
 * site cannot sign a visitor into an account of its choosing (login CSRF).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Who } from "../../ui/console/shell.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { randomBase62, timingSafeEqual } from "../secrets.ts";
import { type ApiFetch, callApi } from "./api.ts";

/** The console's Hono environment: the app's, plus the signed-in visitor. */
export interface ConsoleEnv {
  Variables: AppEnv["Variables"] & { who: Who };
}

const FORM_CSRF_COOKIE = "folio_console_csrf";

/** Signed-in pages: the visitor from the API, or a redirect to sign in and come back. */
export function requireVisitor(api: ApiFetch): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const answer = await callApi<Who & { csrfToken: string | null }>(
      c,
      api,
      "/api/publisher/session",
    );
    if (answer.status === 401 || !answer.body?.csrfToken) {
      const back = c.req.method === "GET" ? new URL(c.req.url).pathname : "/publisher";
      return c.redirect(`/publisher/login?next=${encodeURIComponent(back)}`, 303);
    }
    if (!answer.ok) throw new Error(`GET /api/publisher/session answered ${answer.status}`);
    c.set("who", answer.body as Who);
    await next();
  };
}

/** The double-submit token of the sign-up and sign-in forms: reused, or set now. */
export function formToken(c: Context, deps: Pick<AppDeps, "config">): string {
  const existing = getCookie(c, FORM_CSRF_COOKIE);
  const token = existing && /^[0-9A-Za-z]{32}$/.test(existing) ? existing : randomBase62(32);
  setCookie(c, FORM_CSRF_COOKIE, token, {
    path: "/publisher",
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.config.baseUrl.startsWith("https:"),
    maxAge: 3600,
  });
  return token;
}

/** Whether a sign-up or sign-in form came back with the token its page set. */
export function formTokenMatches(c: Context, field: unknown): boolean {
  const cookie = getCookie(c, FORM_CSRF_COOKIE);
  return typeof field === "string" && !!cookie && field.length === cookie.length &&
    timingSafeEqual(cookie, field);
}

/** Only same-site paths under /publisher may be returned to after sign-in (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/publisher(\/[A-Za-z0-9/_-]*)?$/.test(next)
    ? next
    : "/publisher";
}
