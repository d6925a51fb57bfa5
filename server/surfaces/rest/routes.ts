/**
 * The publisher REST API (docs/SPEC.md "Publisher REST API"), mounted at /api/v1:
 *   GET /articles/search, GET /passages/search, GET /articles/<id-or-url> on the publisher's
 *   custom domain, and the same under /publishers/<publisherId>/ on the platform host.
 * Every route runs the envelope (call log, publisher, reach gate and credential), parses the
 * shared inputs, makes one call into server/domain/reads and shapes the answer. JSON with open CORS.
 */
import { type Context, Hono } from "hono";
import { openCors } from "../../platform/cors.ts";
import { validator } from "hono/validator";
import type { AppDeps, AppEnv } from "../../deps.ts";
import {
  callerOf,
  callLogged,
  gate,
  type PublishedEnv,
  publisherFrom,
} from "../../platform/envelope.ts";
import { microsToCents } from "../../platform/money.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { articleFullJson, articleSummary, passageResult } from "../../domain/reads/present.ts";
import { readArticle } from "../../domain/reads/read_article.ts";
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";
import { passageCharges } from "../../domain/billing/receipts.ts";
import { retrievePassages, searchArticles } from "../../domain/reads/search.ts";
import { clientAddress } from "../../platform/throttle.ts";
import { restError } from "./errors.ts";
import { outcomeResponse } from "./outcomes.ts";
import { advertiseRestPayment, paidRestRead } from "./x402.ts";
import { articleNotFound, parseIdOrUrl, parseLimit, parsePrompt, parseQuery } from "./params.ts";

/** The search inputs, parsed by the shared schemas before the handler runs. */
const searchInput = validator("query", (_query, c) => {
  // The first value of a repeated parameter counts, as URLSearchParams.get reads it.
  const params = new URL(c.req.url).searchParams;
  return { query: parseQuery(params), limit: parseLimit(params) };
});

/** Passages: the search inputs and, when given, the end user's prompt (recorded as intent). */
const passagesInput = validator("query", (_query, c) => {
  const params = new URL(c.req.url).searchParams;
  const given = params.get("last_user_prompt");
  return {
    query: parseQuery(params),
    limit: parseLimit(params),
    lastUserPrompt: given === null || given === "" ? null : parsePrompt(params),
  };
});

/** The article reference (path) and the prompt (query), in that order of refusal. */
const articleInput = validator("query", (_query, c) => ({
  idOrUrl: parseIdOrUrl(articleRef(c)),
  lastUserPrompt: parsePrompt(new URL(c.req.url).searchParams),
}));

type Search = { query: string; limit: number };
type ArticleRead = { idOrUrl: string; lastUserPrompt: string };

/** The REST sub-app. */
export function restRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Permissive CORS (docs/SPEC.md): keys travel in the Authorization header, never cookies.
  app.use(
    "*",
    openCors({
      allowMethods: ["GET", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "PAYMENT-SIGNATURE"],
      exposeHeaders: [
        "X-Request-Id",
        "Folio-Charged-Usd-Cents",
        "Folio-Budget-Remaining-Usd-Cents",
        "Folio-Receipt",
        "PAYMENT-REQUIRED",
        "PAYMENT-RESPONSE",
      ],
      maxAge: 86400,
    }),
  );
  app.onError(restError);
  const reads = {
    db: deps.store.db,
    clock: deps.clock,
    search: deps.search,
    intents: deps.callLog,
    receipts: deps.receipts,
  };

  const search = async (c: Context<PublishedEnv>, input: Search) => {
    const { mode, hits, withheld, territory } = await searchArticles(reads, {
      publisher: c.get("publisher"),
      ...input,
      caller: callerOf(c, deps, "rest"),
    });
    // Everything the query could reach is withheld in the caller's region: docs/SPEC.md "Errors".
    if (territory) return c.json({ status: "territory_blocked", message: territory }, 451);
    return c.json({
      count: hits.length,
      mode,
      results: hits.map((h) => ({
        ...articleSummary(h.article),
        ...(h.match ? { match: h.match } : {}),
      })),
      // Some hits withheld in the caller's region: said, so an agent can tell it from no match.
      ...(withheld ? { withheld } : {}),
    });
  };
  const passages = async (
    c: Context<PublishedEnv>,
    input: Search & { lastUserPrompt: string | null },
  ) => {
    const publisher = c.get("publisher");
    const { passages, withheld, territory } = await retrievePassages(reads, {
      publisher,
      ...input,
      caller: callerOf(c, deps, "rest"),
      idempotencyKey: idempotencyKeyOf(c.req.header("idempotency-key")),
    });
    if (territory) return c.json({ status: "territory_blocked", message: territory }, 451);
    // Each charged article's rag read answers its receipt, in the body and the header.
    const charges = passageCharges(passages);
    if (charges.length) c.header("Folio-Receipt", charges.map((ch) => ch.receipt).join(", "));
    return c.json({
      count: passages.length,
      results: passages.map((p) => passageResult(deps.config, publisher, p)),
      ...(withheld ? { withheld } : {}),
      ...(charges.length ? { charges } : {}),
    });
  };
  const article = async (c: Context<PublishedEnv>, input: ArticleRead) => {
    const publisher = c.get("publisher");
    const caller = callerOf(c, deps, "rest");
    // An anonymous caller may pay this read over x402 (docs/decisions/x402.md "REST").
    const x402 = deps.config.x402 && !caller.buyerId && !caller.license
      ? { ...reads, config: deps.config.x402, log: deps.log }
      : null;
    const ask = { publisher, idOrUrl: input.idOrUrl, caller };
    const read = (x402 && await paidRestRead(x402, c, ask)) ?? await readArticle(reads, {
      publisher,
      ...input,
      caller,
      use: "display",
      idempotencyKey: idempotencyKeyOf(c.req.header("idempotency-key")),
    });
    if (!read.article || !read.decision) throw articleNotFound();
    if (x402 && read.decision.outcome === "paywall_upsell") {
      await advertiseRestPayment(x402, c, ask);
    }
    if (read.charge) {
      c.header("Folio-Charged-Usd-Cents", String(microsToCents(read.charge.micros)));
      c.header("Folio-Receipt", read.charge.receipt);
      c.header(
        "Folio-Budget-Remaining-Usd-Cents",
        String(microsToCents(read.charge.remainingMicros)),
      );
    }
    if (read.decision.outcome === "full") {
      // c.json()'s body, with the article's own JSON kept from the last time it was served.
      const article = articleFullJson(read.article, read.decision.policy);
      const license = JSON.stringify(licenseBlock(deps.config, publisher, read.decision));
      return c.body(
        `{"message":${
          JSON.stringify(read.decision.reason)
        },"article":${article},"license":${license}}`,
        200,
        { "Content-Type": "application/json" },
      );
    }
    return outcomeResponse(c, { deps, publisher, article: read.article, decision: read.decision });
  };

  // Every route: the envelope (logged as `_rest:<tool>`; the publisher by Host on its custom
  // domain, or by id in the path on the platform host; the reach gate, anonymous callers metered
  // by address), then the inputs, then one read.
  const reachable = gate(deps, "rest", (c) => `ip:${clientAddress(c)}`);
  const logged = (tool: string) => callLogged(deps, "rest", { tools: [`_rest:${tool}`] });
  for (const [prefix, via] of [["", "host"], ["/publishers/:publisherId", "param"]] as const) {
    const publisher = publisherFrom(deps, via);
    app.get(
      `${prefix}/articles/search`,
      logged("search_articles"),
      publisher,
      reachable,
      searchInput,
      (c) => search(c, c.req.valid("query")),
    );
    app.get(
      `${prefix}/passages/search`,
      logged("retrieve_passages"),
      publisher,
      reachable,
      passagesInput,
      (c) => passages(c, c.req.valid("query")),
    );
    app.get(
      `${prefix}/articles/*`,
      logged("get_article"),
      publisher,
      reachable,
      articleInput,
      (c) => article(c, c.req.valid("query")),
    );
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
