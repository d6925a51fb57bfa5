/**
 * Open CORS (origin "*"; keys travel in the Authorization header, never cookies): Hono's cors()
 * with the same headers, minus a copy. Hono's sets its headers on `c.res` before the handler, so
 * Hono copies every handler's Response to merge them (about a tenth of a REST get_article, issue
 * 15). Here they go where `c.json()` picks them up; only a Response a handler built itself is
 * copied to add them. Preflight requests are Hono's own.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/** The CORS middleware of an open surface. */
export function openCors(options: {
  allowMethods: string[];
  allowHeaders?: string[];
  exposeHeaders?: string[];
  maxAge: number;
}): MiddlewareHandler {
  const preflight = cors({ origin: "*", ...options });
  const expose = options.exposeHeaders?.join(",");
  const add = (set: (name: string, value: string) => void) => {
    set("Access-Control-Allow-Origin", "*");
    if (expose) set("Access-Control-Expose-Headers", expose);
  };
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return await preflight(c, next);
    add(c.header);
    await next();
    if (!c.res.headers.has("Access-Control-Allow-Origin")) add(c.header);
  };
}
