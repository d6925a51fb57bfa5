/**
 * A secret a POST made, shown once by the GET page its 303 leads to (issue 42: a reload must not
 * post the form again). The POST seals the secret into a short-lived cookie scoped to that page's
 * path, under the session's CSRF token (docs/decisions/pages.md); the GET opens it and clears the
 * cookie in the same answer, so a reload finds nothing and makes nothing.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
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

/** A new key and what it belongs to (the new account's or the key's own name), shown once. */
const newKeySchema = z.object({ name: z.string(), apiKey: z.string() });

/** What a page that made a key seals for the page that shows it. */
export type NewKey = z.output<typeof newKeySchema>;

/** `redirectToShowOnce` for a new key and its name. */
export async function redirectToNewKey(
  c: Context,
  deps: Pick<AppDeps, "config">,
  path: string,
  material: string,
  made: NewKey,
): Promise<Response> {
  return await redirectToShowOnce(c, deps, path, material, JSON.stringify(made));
}

/** The new key sealed for this page under `material`, taken, or null. */
export async function takeNewKey(c: Context, material: string): Promise<NewKey | null> {
  const opened = material ? await takeShownOnce(c, material) : null;
  if (!opened) return null;
  const read = newKeySchema.safeParse(JSON.parse(opened));
  return read.success ? read.data : null;
}
