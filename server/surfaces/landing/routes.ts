/**
 * The publisher's host (docs/SPEC.md "Agent payments"; docs/DESIGN.md "Publisher host"): on a
 * publisher's custom domain every path the agent APIs do not claim is the publisher's site. The
 * root app mounts `publisherHostRoutes()` after the agent surfaces and before the platform's
 * pages; a request for any other host falls through to them. The site itself is one inner app:
 * every page runs the envelope (call log, the publisher the dispatcher found, reach gate on surface
 * `landing`), and every answer carries the page headers of server/platform/security_headers.ts.
 */
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { findArticleByPath } from "../../../store/articles.ts";
import { bookChapters, getBook } from "../../../store/books.ts";
import { findPublisherByDomain, normaliseHost, type Publisher } from "../../../store/publishers.ts";
import { renderSite, SiteBook, SiteHome, SiteNotFound, SiteTopic } from "../../../ui/site/mod.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import {
  bodyLimited,
  callLogged,
  gate,
  JSON_BODY_LIMIT,
  type PublishedEnv,
} from "../../platform/envelope.ts";
import { territoryOf } from "../../platform/identity.ts";
import { hostOf, requestId } from "../../platform/middleware.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { clientAddress } from "../../platform/throttle.ts";
import { articlePage } from "./article.ts";
import { classifyAgent } from "../../domain/crawlers/crawlers.ts";
import { landingError } from "./errors.ts";
import { licenseXmlRoute, robotsTxtRoute } from "./documents.ts";
import { nlwebAsk } from "./nlweb.ts";
import { brandOf, homeView, pageParam, topicView } from "./pages.ts";
import { identifyVisitor, type Visitor } from "./visitor.ts";

/** The publisher the dispatcher found for a request it hands to the site: looked up once. */
const handedOver = new WeakMap<Request, Publisher>();

/**
 * Puts the publisher the dispatcher found on `c.var` (the site's step of the envelope); the site
 * is reached only through the dispatcher, so there always is one.
 */
const sitePublisher = createMiddleware<PublishedEnv>(async (c, next) => {
  const publisher = handedOver.get(c.req.raw);
  if (!publisher) throw new Error("The publisher's site was reached without its publisher");
  c.set("publisher", publisher);
  await next();
});

/** Hands requests for a publisher's custom domain to its site; others go on to the platform. */
export function publisherHostRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const site = siteApp(deps);
  app.all("*", async (c, next) => {
    const host = normaliseHost(hostOf(c));
    if (host === normaliseHost(new URL(deps.config.baseUrl).host)) return await next();
    const publisher = await findPublisherByDomain(deps.store.db, host);
    if (!publisher) return await next();
    // The site keeps the request id the root assigned, so the call log and the answer agree.
    const headers = new Headers(c.req.raw.headers);
    headers.set("x-request-id", c.get("requestId"));
    const req = new Request(c.req.raw, { headers });
    handedOver.set(req, publisher);
    return await site.fetch(req, c.env);
  });
  return app;
}

function siteApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  // This inner app answers only for a publisher's domain, so its wildcard is no root's.
  app.use(pageHeaders(deps.config, CSP.site, { host: "publisher" }));
  app.onError(landingError(deps));
  app.notFound((c) => notFoundPage(deps, c));
  const logged = (tool: string, surface: "landing" | "nlweb" = "landing") =>
    callLogged(deps, surface, { tools: [tool] });
  const publisher = sitePublisher;
  // A named crawler is metered as its family; anyone else by address.
  const reachable = gate(deps, "landing", (c) => {
    const crawler = classifyAgent(c.req.header("user-agent"));
    return crawler ? `crawler:${crawler.family}` : `ip:${clientAddress(c)}`;
  });
  const visitor = (c: Context<PublishedEnv>) => identifyVisitor(deps, c);

  // Always free, to every visitor (robots.txt, the license): they say what the rest costs.
  app.get("/robots.txt", logged("_landing:robots.txt"), publisher, robotsTxtRoute(deps));
  app.get("/license.xml", logged("_landing:license.xml"), publisher, licenseXmlRoute(deps));
  app.on(
    ["GET", "POST"],
    "/ask",
    logged("_nlweb:ask", "nlweb"),
    publisher,
    reachable,
    bodyLimited(JSON_BODY_LIMIT),
    (c) => nlwebAsk(deps, c),
  );

  app.get("/", logged("_landing:home"), publisher, reachable, async (c) => {
    const who = await visitor(c);
    const view = await homeView(deps, {
      publisher: c.get("publisher"),
      caller: callerOf(deps, c, who),
      page: pageParam(c.req.query("page")),
    });
    return page(c, renderSite(SiteHome(view)));
  });
  app.get("/topics/:tag", logged("_landing:topic"), publisher, reachable, async (c) => {
    const who = await visitor(c);
    const view = await topicView(deps, {
      publisher: c.get("publisher"),
      caller: callerOf(deps, c, who),
      page: pageParam(c.req.query("page")),
      tag: c.req.param("tag").toLowerCase(),
    });
    return page(c, renderSite(SiteTopic(view)));
  });
  app.get("/books/:bookId", logged("_landing:book"), publisher, reachable, async (c) => {
    await visitor(c);
    const p = c.get("publisher");
    const book = await getBook(deps.store.db, p.id, c.req.param("bookId"));
    if (!book) return notFoundPage(deps, c);
    const chapters = await bookChapters(deps.store.db, p.id, book.id);
    return page(
      c,
      renderSite(SiteBook({
        brand: brandOf(deps, p),
        book: { id: book.id, title: book.title, author: book.author, createdAt: book.createdAt },
        chapters: chapters.map((ch) => ({
          no: ch.number,
          title: ch.title,
          path: `/books/${book.id}/chapters/${ch.number}`,
        })),
      })),
    );
  });
  // Every other path is an article's (a chapter's included): the path of its canonical URL.
  app.get("*", logged("_landing:article"), publisher, reachable, async (c) => {
    const who = await visitor(c);
    const article = await findArticleByPath(
      deps.store.db,
      c.get("publisher").id,
      new URL(c.req.url).pathname,
    );
    if (!article) return notFoundPage(deps, c);
    return await articlePage(deps, c, article, who);
  });
  return app;
}

/** The caller the listings decide for. */
function callerOf<E extends AppEnv>(deps: AppDeps, c: Context<E>, who: Visitor): Caller {
  return {
    identity: who.identity,
    buyerId: who.buyerId,
    territory: territoryOf(deps.config, c.req.raw.headers),
    surface: "landing",
  };
}

function page<E extends AppEnv>(c: Context<E>, html: string): Response {
  c.header("Link", `<${new URL(c.req.url).origin}/license.xml>; rel="license"`);
  return c.html(html);
}

async function notFoundPage<E extends AppEnv>(
  deps: AppDeps,
  c: Context<E>,
): Promise<Response> {
  const host = normaliseHost(hostOf(c));
  const p = c.get("publisher") ?? handedOver.get(c.req.raw) ??
    await findPublisherByDomain(deps.store.db, host);
  if (!p) return c.text("Not found", 404);
  return c.html(
    renderSite(SiteNotFound({ brand: brandOf(deps, p), path: new URL(c.req.url).pathname })),
    404,
  );
}
