/**
 * A portal form the API refused for its CSRF token (missing, or from a session that has ended or
 * been replaced): one page in words for the console, the buyer portal and the operator console
 * (issue 42), answered with 403 by `framePortal`. Nothing was changed; the way on is the form again.
 */
import type { Context } from "hono";
import { FormExpiredPage } from "../../../ui/console/error.tsx";
import { renderPage } from "../../../ui/layout.tsx";

/** Thrown by `callApi` when the API answers a form's call with `csrf_failed`. */
export class FormExpired extends Error {
  override name = "FormExpired";
  constructor() {
    super("The form's security token is missing or belongs to another session");
  }
}

/**
 * The 403 page: what happened, what to do, and a link back to the page the form was on (its
 * same-origin Referer under the portal, which the portals' Referrer-Policy keeps) or the portal's start.
 */
export function formExpiredPage(
  c: Context,
  home: { href: string; label: string },
  config: { baseUrl: string },
): Response {
  const back = formPage(c.req.header("referer"), home.href, config.baseUrl);
  return c.html(
    renderPage(FormExpiredPage({ back, home: home.href })),
    403,
    { "Cache-Control": "no-store" },
  );
}

function formPage(referer: string | undefined, home: string, baseUrl: string): string {
  if (!referer) return home;
  try {
    const from = new URL(referer);
    const under = from.pathname === home || from.pathname.startsWith(`${home}/`);
    return from.origin === new URL(baseUrl).origin && under
      ? `${from.pathname}${from.search}`
      : home;
  } catch {
    return home;
  }
}
