/**
 * What both portals' account pages share (the publisher console's and the buyer portal's): the
 * expired-form sentence, the sign-out form and passing the API's session cookie on.
 */
import type { Context } from "hono";
import { timingSafeEqual } from "../../platform/secrets.ts";
import { type ApiAnswer, type ApiFetch, callApi } from "./api.ts";
import { field, readForm } from "./forms.ts";
import { FormExpired } from "./form_expired.ts";
import type { PortalSite, VisitorEnv } from "./session.ts";
import type { FieldMap } from "./field_errors.ts";

/**
 * What a sign-up or sign-in form without its double-submit token is told, above the form itself
 * (signed-in forms get the kit's expired-form page instead: form_expired.ts).
 */
export const EXPIRED_FORM =
  "The form expired, so nothing was sent (it was open too long, or came from another site). " +
  "Send it again from this page.";

/**
 * A portal's sign-out form: it needs the session's CSRF token too (otherwise any site could sign
 * a visitor out), then `end` ends the session in the API, whose cleared cookie is passed on.
 */
export function signOut(
  api: ApiFetch,
  site: PortalSite,
  end: { path: string; method: "POST" | "DELETE" },
): (c: Context<VisitorEnv<{ csrfToken: string }>>) => Promise<Response> {
  return async (c) => {
    const f = await readForm(c);
    const token = (await c.var.signedIn())?.csrfToken;
    if (!token) return c.redirect(`${site.home}/login`, 303);
    if (!timingSafeEqual(token, field(f, "_csrf"))) throw new FormExpired();
    passCookie(c, await callApi(c, api, end.path, null, { method: end.method, csrf: token }));
    return c.redirect(`${site.home}/login?done=signed-out`, 303);
  };
}

/** Passes the API's Set-Cookie (a session opened or ended) on to the browser. */
export function passCookie(c: Context, answer: ApiAnswer<unknown>): void {
  for (const cookie of answer.headers.getSetCookie()) {
    c.header("Set-Cookie", cookie, { append: true });
  }
}

/** The password forms' fields (console account, buyer keys), by the API's input names. */
export const PASSWORD_FIELDS: FieldMap = {
  currentPassword: { name: "currentPassword", label: "Current password" },
  password: { name: "password", label: "New password" },
};
