/**
 * GET /docs: the API reference for people, rendered on the server from the OpenAPI document
 * (server/surfaces/openapi/reference.ts, ui/api_docs.tsx), under the page headers (server/platform/security_headers.ts):
 * nothing loads but the page's own styles and its one optional script, /docs/copy.js (copy buttons).
 */
import { Hono } from "hono";
import { ApiDocsPage } from "../../../ui/api_docs.tsx";
import { COPY_JS } from "../../../ui/copy_script.ts";
import { renderPage } from "../../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { openApiDocument } from "./document.ts";
import { referenceOf } from "./reference.ts";

/** The reference page and its script, mounted at /docs. */
export function docsRoutes(deps: Pick<AppDeps, "config">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", pageHeaders(deps.config, CSP.docs));
  let page: { doc: object; html: string } | null = null;
  app.get("/", (c) => {
    const doc = openApiDocument(deps.config);
    if (page?.doc !== doc) {
      const reference = referenceOf(doc);
      page = { doc, html: renderPage(ApiDocsPage({ reference, specUrl: "/api/openapi.json" })) };
    }
    c.header("Cache-Control", "public, max-age=300");
    return c.html(page.html);
  });
  app.get("/copy.js", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(COPY_JS);
  });
  return app;
}
