/**
 * What both portals (the publisher console at /publisher, the buyer portal at /buyer) put around
 * their pages: headers (the page headers of server/platform/security_headers.ts, whose portal policy runs
 * only the portal's own script; never cached), the app's one error model worded as a page (a
 * form whose CSRF token the API refused gets the expired-form page), and the script itself.
 */
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ConsoleErrorPage } from "../../../ui/console/error.tsx";
import { CONSOLE_JS } from "../../../ui/console/script.ts";
import { renderPage } from "../../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { onError } from "../../platform/middleware.ts";
import { inReaderZone, zoneFromCookies } from "../../platform/local_time.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { FormExpired, formExpiredPage } from "./form_expired.ts";

/**
 * Frames a portal sub-app mounted at `home`: page headers on every answer (a page that set its
 * own CSP keeps it), errors as pages with the API's status and words, and `/console.js`.
 */
export function framePortal<E extends AppEnv>(
  app: Hono<E>,
  deps: AppDeps,
  home: { href: string; label: string },
): void {
  app.use("*", pageHeaders(deps.config, CSP.portal), async (c, next) => {
    // Times on the page in the reader's zone, as the portal's script wrote it (local_time.ts).
    await inReaderZone(zoneFromCookies(c.req.header("cookie")), next);
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  // The app's one error model, worded as a page: the JSON handler decides status and message.
  const asJson = onError(deps);
  app.onError(async (err, c) => {
    if (err instanceof FormExpired) return formExpiredPage(c, home, deps.config);
    // A portal's environment only adds variables to the app's, which the JSON handler reads.
    const res = await asJson(err, c as unknown as Context<AppEnv>);
    const body = await res.clone().json().catch(() => null);
    const message = body?.error?.message ?? "Something went wrong";
    return c.html(
      renderPage(ConsoleErrorPage({
        status: res.status,
        message,
        home: home.href,
        homeLabel: home.label,
      })),
      res.status as ContentfulStatusCode,
      Object.fromEntries([...res.headers].filter(([k]) => k === "retry-after")),
    );
  });
  app.get("/console.js", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(CONSOLE_JS);
  });
}
