/**
 * The publisher REST API (docs/SPEC.md "Publisher REST API"), on the publisher's custom domain:
 *   GET /api/v1/articles/search, GET /api/v1/articles/<id-or-url>, GET /api/v1/passages/search.
 * A publisher without a custom domain is reachable with a buyer key at
 * /api/v1/publishers/<publisherId>/... on the platform host. Responses are JSON with open CORS.
 */
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { findPublisherByDomain, getPublisher, type Publisher } from "../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { AppError } from "../errors.ts";
import { hostOf } from "../middleware.ts";
import { microsToCents } from "../money.ts";
import { licenseBlock } from "../reads/license_block.ts";
import { readArticle } from "../reads/read_article.ts";
import type { Caller } from "../reads/requester.ts";
import { retrievePassages, searchArticles } from "../reads/search.ts";
import { restCaller } from "./caller.ts";
import {
  articleNotFound,
  parseIdOrUrl,
  parseLimit,
  parsePrompt,
  parseQuery,
  RestError,
} from "./params.ts";
import { articleFull, articleSummary } from "../reads/present.ts";
import { outcomeResponse } from "./outcomes.ts";

type Handler = (c: Context<AppEnv>, p: Publisher, caller: Caller) => Promise<Response>;

/** The REST sub-app. */
export function restRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const reads = { db: deps.store.db, clock: deps.clock, search: deps.search };
  // Permissive CORS (docs/SPEC.md): keys travel in the Authorization header, never cookies.
  app.use(
    "/api/v1/*",
    cors({
      origin: "*",
      allowMethods: ["GET", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key"],
      exposeHeaders: ["X-Request-Id", "Folio-Charged-Usd-Cents"],
      maxAge: 86400,
    }),
  );

  const search: Handler = async (c, publisher, caller) => {
    const params = new URL(c.req.url).searchParams;
    const query = parseQuery(params);
    const limit = parseLimit(params);
    const { mode, hits } = await searchArticles(reads, { publisher, query, limit, caller });
    return c.json({
      count: hits.length,
      mode,
      results: hits.map((h) => ({
        ...articleSummary(h.article),
        ...(h.match ? { match: h.match } : {}),
      })),
    });
  };
  const passages: Handler = async (c, publisher, caller) => {
    const params = new URL(c.req.url).searchParams;
    const query = parseQuery(params);
    const limit = parseLimit(params);
    const lastUserPrompt = params.get("last_user_prompt");
    const found = await retrievePassages(reads, {
      publisher,
      query,
      limit,
      caller,
      lastUserPrompt,
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
  const article: Handler = async (c, publisher, caller) => {
    const params = new URL(c.req.url).searchParams;
    const idOrUrl = parseIdOrUrl(articleRef(c));
    const lastUserPrompt = parsePrompt(params);
    const read = await readArticle(reads, {
      publisher,
      idOrUrl,
      caller,
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

  const tools = { search_articles: search, retrieve_passages: passages, get_article: article };
  const mount = (path: string, tool: keyof typeof tools) => {
    app.get(`/api/v1${path}`, (c) => serve(c, deps, tool, tools[tool], "host"));
    app.get(
      `/api/v1/publishers/:publisherId${path}`,
      (c) => serve(c, deps, tool, tools[tool], "path"),
    );
  };
  mount("/articles/search", "search_articles");
  mount("/passages/search", "retrieve_passages");
  mount("/articles/*", "get_article");
  return app;
}

/** Resolves publisher and caller, runs the handler, translates errors, logs the call. */
async function serve(
  c: Context<AppEnv>,
  deps: AppDeps,
  tool: string,
  handler: Handler,
  via: "host" | "path",
): Promise<Response> {
  const started = performance.now();
  let publisher: Publisher | null = null;
  let identity: string | null = null;
  let res: Response;
  try {
    publisher = via === "host"
      ? await findPublisherByDomain(deps.store.db, hostOf(c))
      : await getPublisher(deps.store.db, c.req.param("publisherId") ?? "");
    if (!publisher) {
      throw via === "host"
        ? new RestError(
          404,
          "unknown_publisher_host",
          `No publisher is served at ${hostOf(c).replace(/:\d+$/, "")}`,
        )
        : new RestError(404, "unknown_publisher", "No publisher has that id");
    }
    const params = new URL(c.req.url).searchParams;
    if (params.has("api_key") || params.has("access_token")) {
      // Keys in URLs end up in logs and caches (docs/TEST-PLAN.md 5.6): refuse rather than ignore.
      throw new RestError(
        401,
        "invalid_api_key",
        "Send the key in the Authorization header, never in the URL",
      );
    }
    const caller = await restCaller(c, { db: deps.store.db, config: deps.config });
    identity = caller.identity;
    // Public REST needs the toggle and a custom domain; a buyer key always works (docs/SPEC.md).
    const publicOk = publisher.toggles.publicRest && publisher.customDomain !== null;
    if (!caller.buyerId && !publicOk) {
      throw new RestError(
        404,
        "rest_api_disabled",
        `${publisher.name} has not enabled anonymous REST access; send a buyer key (Authorization: Bearer mk_...)`,
      );
    }
    res = await handler(c, publisher, caller);
  } catch (err) {
    res = restError(c, err);
  }
  deps.callLog.record({
    publisherId: publisher?.id ?? null,
    at: deps.clock.now(),
    surface: "rest",
    tool: `_rest:${tool}`,
    userAgent: c.req.header("user-agent") ?? "",
    latencyMs: performance.now() - started,
    status: res.status < 400 ? "ok" : "error",
    httpStatus: res.status,
    identity,
    requestId: c.get("requestId"),
  });
  return res;
}

function restError(c: Context<AppEnv>, err: unknown): Response {
  if (err instanceof RestError) {
    return c.json({ status: err.status, message: err.message }, err.httpStatus);
  }
  if (err instanceof AppError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ status: err.code, message: err.message }, err.status);
  }
  throw err;
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
