/**
 * The platform's answer to a path no route serves. API clients get the error model
 * (`{error: {code: "not_found"}}`, pinned by tests/platform_wire_test.ts); a browser navigating
 * there, whose Accept prefers text/html to JSON (RFC 9110 §12.5.1), gets a page with the way home
 * and the document pages' headers. Accept that names neither, or only *\/*, keeps the JSON.
 */
import type { Context } from "hono";
import { accepts } from "hono/accepts";
import { renderPage } from "../../ui/layout.tsx";
import { NotFoundPage } from "../../ui/not_found.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { errorBody } from "../platform/errors.ts";
import { CSP, pageHeaders } from "../platform/security_headers.ts";

/** The root app's not-found handler. */
export function notFound(deps: Pick<AppDeps, "config">) {
  const headers = pageHeaders(deps.config, CSP.document);
  return async (c: Context<AppEnv>): Promise<Response> => {
    const slash = withoutTrailingSlash(c);
    if (slash) return slash;
    const wanted = accepts(c, {
      header: "Accept",
      supports: ["application/json", "text/html"],
      default: "application/json",
    });
    if (wanted !== "text/html") {
      return c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404);
    }
    await headers(c, () => {
      c.res = c.html(renderPage(NotFoundPage({ path: c.req.path })), 404);
      return Promise.resolve();
    });
    return c.res;
  };
}

/**
 * "/publisher/" is "/publisher" (issue 42): a GET or HEAD that no route serves only for its
 * trailing slash redirects, 301, to the path without it, its query string kept; else null.
 */
export function withoutTrailingSlash(c: Context): Response | null {
  const url = new URL(c.req.url);
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return null;
  if (url.pathname.length <= 1 || !url.pathname.endsWith("/")) return null;
  url.pathname = url.pathname.replace(/\/+$/, "") || "/";
  return c.redirect(url.href, 301);
}
