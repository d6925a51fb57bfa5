/** GET / on the platform host: the front page. */
import { Hono } from "hono";
import { countsByPublisher } from "../../store/articles.ts";
import { listPublishers } from "../../store/publishers.ts";
import { HomePage } from "../../ui/home.tsx";
import { renderPage } from "../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import { CSP, pageHeaders } from "../platform/security_headers.ts";
import { publisherUrls } from "../platform/urls.ts";
import { openToAnonymous } from "../domain/licensing/reach.ts";

/** The front page route. */
export function homeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Mounted at the root: the headers go on the route itself, not on a wildcard.
  app.get("/", pageHeaders(deps.config, CSP.document), async (c) => {
    const counts = await countsByPublisher(deps.store.db);
    const publishers = (await listPublishers(deps.store.db)).map((p) => ({
      name: p.name,
      slug: p.slug,
      articles: (counts.get(p.id)?.articles ?? 0) + (counts.get(p.id)?.chapters ?? 0),
      urls: publisherUrls(deps.config, p),
      restOpen: openToAnonymous(p, "rest"),
    }));
    return c.html(renderPage(HomePage({ baseUrl: deps.config.baseUrl, publishers })));
  });
  return app;
}
