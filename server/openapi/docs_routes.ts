/**
 * GET /docs: the API reference for people, rendered on the server from the OpenAPI document
 * (server/openapi/reference.ts, ui/api_docs.tsx), with the console's header policy: nothing loads
 * but the page's own styles and its one optional script, /docs/copy.js (copy buttons).
 */
import { Hono } from "hono";
import { ApiDocsPage } from "../../ui/api_docs.tsx";
import { COPY_JS } from "../../ui/copy_script.ts";
import { renderPage } from "../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { openApiDocument } from "./document.ts";
import { referenceOf } from "./reference.ts";

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The reference page and its script, mounted at /docs. */
export function docsRoutes(deps: Pick<AppDeps, "config">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let page: { doc: object; html: string } | null = null;
  app.get("/", (c) => {
    const doc = openApiDocument(deps.config);
    if (page?.doc !== doc) {
      const reference = referenceOf(doc);
      page = { doc, html: renderPage(ApiDocsPage({ reference, specUrl: "/api/openapi.json" })) };
    }
    c.header("Content-Security-Policy", CSP);
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "public, max-age=300");
    return c.html(page.html);
  });
  app.get("/copy.js", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(COPY_JS);
  });
  return app;
}
