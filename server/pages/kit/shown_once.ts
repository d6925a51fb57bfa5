/**
 * A secret a POST made, shown once by the GET page its 303 leads to (issue 42: a reload must not
 * post the form again). The POST seals the secret into a short-lived cookie scoped to that page's
 * path, under the session's CSRF token (docs/decisions/pages.md); the GET opens it and clears the
 * cookie in the same answer, so a reload finds nothing and makes nothing.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../../deps.ts";
import { seal, unseal } from "../../platform/sealed.ts";

const COOKIE = "folio_shown_once";
const PURPOSE = "shown once";
/** Long enough for the redirect, short enough that a secret does not linger in the jar. */
const MAX_AGE_S = 300;

/**
 * Seals `secret` for the GET page at `path` (under the session's `material`); answers 303 there,
 * with `query` (e.g. "?done=added") after the path.
 */
export async function redirectToShowOnce(
  c: Context,
  deps: Pick<AppDeps, "config">,
  path: string,
  material: string,
  secret: string,
  query = "",
): Promise<Response> {
  setCookie(c, COOKIE, await seal(secret, material, PURPOSE), {
    path,
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.config.baseUrl.startsWith("https:"),
    maxAge: MAX_AGE_S,
  });
  return c.redirect(`${path}${query}`, 303);
}

/** The secret sealed for this page and session, taken (the cookie is cleared), or null. */
export async function takeShownOnce(c: Context, material: string): Promise<string | null> {
  const sealed = getCookie(c, COOKIE);
  c.header("Cache-Control", "no-store");
  if (!sealed) return null;
  deleteCookie(c, COOKIE, { path: new URL(c.req.url).pathname });
  return await unseal(sealed, material, PURPOSE);
}
