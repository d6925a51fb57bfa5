/**
 * The publisher REST API (docs/SPEC.md "Publisher REST API"), mounted at /api/v1:
 *   GET /articles/search, GET /passages/search, GET /articles/<id-or-url> on the publisher's
 *   custom domain, and the same under /publishers/<publisherId>/ on the platform host.
 * Every route runs the envelope (call log, publisher, reach gate and credential), parses the
 * shared inputs, makes one call into server/reads and shapes the answer. JSON with open CORS.
 */
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import type { AppDeps, AppEnv } from "../deps.ts";
import { callerOf, callLogged, gate, publisherFrom } from "../envelope.ts";
import { microsToCents } from "../money.ts";
import { licenseBlock } from "../reads/license_block.ts";
import { articleFull, articleSummary } from "../reads/present.ts";
import { readArticle } from "../reads/read_article.ts";
import { retrievePassages, searchArticles } from "../reads/search.ts";
import { clientAddress } from "../throttle.ts";
import { restError } from "./errors.ts";
import { outcomeResponse } from "./outcomes.ts";
import { articleNotFound, parseIdOrUrl, parseLimit, parsePrompt, parseQuery } from "./params.ts";

type Handler = (c: Context<AppEnv>) => Promise<Response>;

/** The REST sub-app. */
export function restRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Permissive CORS (docs/SPEC.md): keys travel in the Authorization header, never cookies.
  app.use(
    "*",
    cors({
      origin: "*",
      allowMethods: ["GET", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key"],
      exposeHeaders: ["X-Request-Id", "Folio-Charged-Usd-Cents"],
      maxAge: 86400,
    }),
  );
  app.onError(restError);
  const reads = { db: deps.store.db, clock: deps.clock, search: deps.search };

  const search: Handler = async (c) => {
    const params = new URL(c.req.url).searchParams;
    const { mode, hits } = await searchArticles(reads, {
      publisher: c.var.publisher!,
      query: parseQuery(params),
      limit: parseLimit(params),
      caller: callerOf(c, deps, "rest"),
    });
    return c.json({
      count: hits.length,
      mode,
      results: hits.map((h) => ({
        ...articleSummary(h.article),
        ...(h.match ? { match: h.match } : {}),
      })),
    });
  };
  const passages: Handler = async (c) => {
    const params = new URL(c.req.url).searchParams;
    const publisher = c.var.publisher!;
    const found = await retrievePassages(reads, {
      publisher,
      query: parseQuery(params),
      limit: parseLimit(params),
      caller: callerOf(c, deps, "rest"),
      lastUserPrompt: params.get("last_user_prompt"),
    });
    return c.json({
      count: found.length,
      results: found.map((p) => ({
        chunkId: p.chunkId,
        section: p.section,
        text: p.text,
        score: p.score,
        article: articleSummary(p.article),
        license: licenseBlock(deps.config, publisher, p.decision),
      })),
    });
  };
  const article: Handler = async (c) => {
    const publisher = c.var.publisher!;
    const idOrUrl = parseIdOrUrl(articleRef(c));
    const lastUserPrompt = parsePrompt(new URL(c.req.url).searchParams);
    const read = await readArticle(reads, {
      publisher,
      idOrUrl,
      caller: callerOf(c, deps, "rest"),
      use: "display",
      lastUserPrompt,
      idempotencyKey: c.req.header("idempotency-key") ?? null,
    });
    if (!read.article || !read.decision) throw articleNotFound();
    if (read.charge) c.header("Folio-Charged-Usd-Cents", String(microsToCents(read.charge.micros)));
    if (read.decision.outcome === "full") {
      return c.json({
        article: articleFull(read.article, read.decision.policy),
        license: licenseBlock(deps.config, publisher, read.decision),
      });
    }
    return outcomeResponse(c, { deps, publisher, article: read.article, decision: read.decision });
  };

  const routes: [string, string, Handler][] = [
    ["/articles/search", "search_articles", search],
    ["/passages/search", "retrieve_passages", passages],
    ["/articles/*", "get_article", article],
  ];
  // The envelope of every route: logged as `_rest:<tool>`, the publisher by Host on its custom
  // domain or by id in the path on the platform host, then the reach gate (anonymous callers
  // are metered by address).
  const reachable = gate(deps, "rest", (c) => `ip:${clientAddress(c)}`);
  for (const [prefix, via] of [["", "host"], ["/publishers/:publisherId", "param"]] as const) {
    const publisher = publisherFrom(deps, via);
    for (const [path, tool, handler] of routes) {
      const logged = callLogged(deps, "rest", { tools: [`_rest:${tool}`] });
      app.get(`${prefix}${path}`, logged, publisher, reachable, handler);
    }
  }
  return app;
}

/** The id or URL after /articles/, decoded once (a URL may arrive encoded or raw). */
function articleRef(c: Context): string {
  const path = new URL(c.req.url).pathname;
  const raw = path.slice(path.indexOf("/articles/") + "/articles/".length);
  try {
    return decodeURIComponent(raw);
  } catch {
    throw articleNotFound();
  }
}
