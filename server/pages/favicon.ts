/**
 * The platform's icon: one small SVG mark (a white F on the pages' blue), at /favicon.svg, which
 * every platform page links (ui/layout.tsx), and at /favicon.ico, where browsers look by default.
 * Served from memory like the portals' script, with the document pages' headers.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { CSP, pageHeaders } from "../platform/security_headers.ts";

/** The mark, drawn with shapes only (no font), in the pages' link blue. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="7" fill="#1d4ed8"/>` +
  `<path d="M10 7h13v4.5h-8.2v3.8h7.2v4.5h-7.2V25H10z" fill="#fff"/></svg>`;

/** A week: the icon hardly changes, and a browser asks for it on every page otherwise. */
const MAX_AGE = 604_800;

/** GET /favicon.svg and /favicon.ico (the same mark), mounted at the root. */
export function faviconRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const path of ["/favicon.svg", "/favicon.ico"]) {
    app.get(path, pageHeaders(deps.config, CSP.document), (c) => {
      c.header("Content-Type", "image/svg+xml");
      c.header("Cache-Control", `public, max-age=${MAX_AGE}`);
      return c.body(FAVICON_SVG);
    });
  }
  return app;
}
