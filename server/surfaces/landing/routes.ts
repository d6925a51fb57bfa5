/**
 * The publisher's site (docs/SPEC.md "Agent payments"; docs/DESIGN.md "Publisher host"): on a
 * publisher's custom domain every path the agent APIs do not claim. The root's host router
 * (server/platform/host_router.ts) sends those requests here with the publisher it found; every
 * page runs the envelope (call log, that publisher, reach gate on surface `landing`), and every
 * answer carries the page headers of server/platform/security_headers.ts. The same pages are
 * served on the platform's host under `/read/<publisherId>` (mode "platform"), so that a book
 * chapter of a publisher without a custom domain has a public URL to cite (issue 30); a
 * publisher with one is redirected there.
 */
import { type Context, Hono } from "hono";
import { licenseLink } from "./rsl.ts";
import { findArticleByPath } from "../../../store/articles.ts";
import { bookChapters, getBook } from "../../../store/books.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { platformSitePath, publisherUrls } from "../../platform/urls.ts";
import { renderSite, SiteBook, SiteHome, SiteNotFound, SiteTopic } from "../../../ui/site/mod.ts";
import type { AppDeps } from "../../deps.ts";
import {
  bodyLimited,
  callLogged,
  JSON_BODY_LIMIT,
  type PublishedEnv,
} from "../../platform/envelope.ts";
import { answerOf } from "../../platform/host_router.ts";
import { territoryOf } from "../../platform/identity.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { articlePage } from "./article.ts";
import { classifyAgent } from "../../domain/crawlers/crawlers.ts";
import { landingError } from "./errors.ts";
import { licenseXmlRoute, robotsTxtRoute } from "./documents.ts";
import { nlwebAsk } from "./nlweb.ts";
import { openCors } from "../../platform/cors.ts";
import { brandOf, homeView, pageParam, topicView } from "./pages.ts";
import { siteReach, visitorIdentified } from "./visitor.ts";
import { folioKeeps, originProxy } from "./origin_proxy.ts";

const ASK_CORS = openCors({
  allowMethods: ["GET", "POST", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type"],
  exposeHeaders: ["X-Request-Id"],
  maxAge: 86400,
});

/**
 * The site's routes: mounted by the root under the host router's `SITE` (mode "host"), and under
 * `/read/:publisherId` on the platform's host (mode "platform").
 */
export function siteRoutes(deps: AppDeps, mode: "host" | "platform" = "host"): Hono<PublishedEnv> {
  const app = new Hono<PublishedEnv>();
  const proxied = originProxy(deps);
  // The publisher the host router found (or the path names), and the User-Agent's crawler.
  app.use(async (c, next) => {
    if (mode === "platform") {
      const p = await getPublisher(deps.store.db, c.req.param("publisherId") ?? "");
      if (!p) return c.notFound();
      const base = platformSitePath(p.id);
      const host = publisherUrls(deps.config, p).host;
      // One public URL per page: the publisher's own domain when it has one.
      if (host) {
        const u = new URL(c.req.url);
        return c.redirect(`${host}${u.pathname.slice(base.length) || "/"}${u.search}`, 301);
      }
      c.set("publisher", p);
      c.set("siteBase", base);
    } else {
      const answer = answerOf(c.env);
      // A platform request whose own path named this tree: the platform's 404.
      if (answer.app !== "site") return c.notFound();
      c.set("publisher", answer.publisher);
      c.set("siteBase", "");
    }
    c.set("crawler", classifyAgent(c.req.header("user-agent")));
    // Reverse-proxy mode, on the publisher's own domain: its origin answers, behind the gate.
    const origin = mode === "host" ? c.get("publisher").originUrl : null;
    if (origin && !folioKeeps(new URL(c.req.url).pathname)) {
      return await proxied(c);
    }
    await next();
  });
  // This sub-app answers only for a publisher's domain, so its wildcard is no root's.
  app.use(pageHeaders(deps.config, CSP.site, { host: "publisher" }));
  app.onError(landingError(deps));
  const logged = (tool: string, surface: "landing" | "nlweb" = "landing") =>
    callLogged(deps, surface, { tools: [tool] });
  const reachable = siteReach(deps);
  const visitor = visitorIdentified(deps);

  // Always free, to every visitor (robots.txt, the license): they say what the rest costs. On the
  // platform's host, robots.txt is the platform's own, at its root (RFC 9309 section 2.3).
  if (mode === "host") app.get("/robots.txt", logged("_landing:robots.txt"), robotsTxtRoute(deps));
  app.get("/license.xml", logged("_landing:license.xml"), licenseXmlRoute(deps));
  // Open CORS as the REST API has it (server/platform/cors.ts): NLWeb clients run in browsers.
  if (mode === "host") {
    app.use("/ask", ASK_CORS);
    app.on(
      ["GET", "POST"],
      "/ask",
      logged("_nlweb:ask", "nlweb"),
      reachable,
      bodyLimited(JSON_BODY_LIMIT),
      (c) => nlwebAsk(deps, c),
    );
  }

  app.get("/", logged("_landing:home"), reachable, visitor, async (c) => {
    const view = await homeView(deps, {
      publisher: c.get("publisher"),
      caller: callerOf(deps, c),
      page: pageParam(c.req.query("page")),
      base: c.get("siteBase") ?? "",
    });
    return page(c, renderSite(SiteHome(view)));
  });
  app.get("/topics/:tag", logged("_landing:topic"), reachable, visitor, async (c) => {
    const view = await topicView(deps, {
      publisher: c.get("publisher"),
      caller: callerOf(deps, c),
      page: pageParam(c.req.query("page")),
      tag: c.req.param("tag").toLowerCase(),
      base: c.get("siteBase") ?? "",
    });
    return page(c, renderSite(SiteTopic(view)));
  });
  app.get("/books/:bookId", logged("_landing:book"), reachable, visitor, async (c) => {
    const p = c.get("publisher");
    const book = await getBook(deps.store.db, p.id, c.req.param("bookId"));
    if (!book) return notFoundPage(deps, c);
    const chapters = await bookChapters(deps.store.db, p.id, book.id);
    const base = c.get("siteBase") ?? "";
    return page(
      c,
      renderSite(SiteBook({
        brand: brandOf(deps, p, base),
        book: { id: book.id, title: book.title, author: book.author, createdAt: book.createdAt },
        chapters: chapters.map((ch) => ({
          no: ch.number,
          title: ch.title,
          path: `${base}/books/${book.id}/chapters/${ch.number}`,
        })),
      })),
    );
  });
  // Every other path is an article's (a chapter's included): the path of its canonical URL.
  app.get("*", logged("_landing:article"), reachable, visitor, async (c, next) => {
    const path = new URL(c.req.url).pathname.slice((c.get("siteBase") ?? "").length);
    const article = await findArticleByPath(deps.store.db, c.get("publisher").id, path);
    if (!article) return notFoundPage(deps, c);
    c.set("article", article);
    await next();
  }, (c) => articlePage(deps, c));
  // Any other method on any other path.
  app.all("*", (c) => notFoundPage(deps, c));
  return app;
}

/** The caller the listings decide for. */
function callerOf(deps: AppDeps, c: Context<PublishedEnv>): Caller {
  const who = c.get("visitor")!;
  return {
    identity: who.identity,
    buyerId: who.buyerId,
    territory: territoryOf(deps.config, c.req.raw.headers),
    surface: "landing",
  };
}

function page(c: Context<PublishedEnv>, html: string): Response {
  c.header(
    "Link",
    licenseLink(`${new URL(c.req.url).origin}${c.get("siteBase") ?? ""}/license.xml`),
  );
  return c.html(html);
}

function notFoundPage(deps: AppDeps, c: Context<PublishedEnv>): Response {
  const p = c.get("publisher");
  return c.html(
    renderSite(SiteNotFound({
      brand: brandOf(deps, p, c.get("siteBase") ?? ""),
      path: new URL(c.req.url).pathname,
    })),
    404,
  );
}
