/**
 * NLWeb `ask` on the publisher's host (docs/SPEC.md "Events": logged `_nlweb:ask`), list mode:
 * the same search, access decision and visibility as every surface, answered as schema.org
 * objects. Two request generations (docs/decisions/landing-and-crawlers.md "NLWeb ask"): the
 * classic query string (`GET /ask?query=…`, streamed as server-sent events unless
 * `streaming=false`) and the v0.54 JSON body (`POST {"query": {"text": …}, "prefer": …}`,
 * answered in `prefer.response_format`). Refusals take NLWeb's Failure form (./nlweb_wire.ts).
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { callerOf } from "../../platform/envelope.ts";
import { limit, parseField, query, wholeNumber } from "../../domain/reads/inputs.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { articleSummary } from "../../domain/reads/present.ts";
import { type ArticleHit, searchArticles } from "../../domain/reads/search.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { randomBase62 } from "../../platform/secrets.ts";
import {
  answerBody,
  answerEvents,
  failureBody,
  NlwebFailure,
  RESPONSE_FORMATS,
  type ResponseFormat,
  streamAnswer,
  streamEvents,
  streamingParam,
} from "./nlweb_wire.ts";

/** The v0.54 request body (fields we do not use are allowed and ignored). */
const askBody = z.object({
  query: z.union([
    z.string(),
    z.object({
      text: z.unknown(),
      num_results: z.unknown().optional(),
      max_results: z.unknown().optional(),
    }),
  ]),
  prefer: z.object({
    mode: z.unknown().optional(),
    response_format: z.unknown().optional(),
    streaming: z.unknown().optional(),
  }).optional(),
});

interface AskInput {
  query: string;
  limit: number;
  queryId: string;
  /** null: the classic JSON answer; otherwise the v0.54 format. */
  format: ResponseFormat | null;
  stream: boolean;
}

/** GET|POST /ask. */
export async function nlwebAsk(deps: AppDeps, c: Context<PublishedEnv>): Promise<Response> {
  try {
    const input = await askInput(c);
    const publisher = c.get("publisher");
    const { hits, territory } = await searchArticles(
      { db: deps.store.db, clock: deps.clock, search: deps.search },
      { publisher, query: input.query, limit: input.limit, caller: callerOf(c, deps, "nlweb") },
    );
    // Everything the query could reach is withheld in the caller's region, as REST, MCP and A2A
    // answer it (docs/SPEC.md "Errors": 451), not an empty list that reads as "no match".
    if (territory) throw new NlwebFailure(451, "TERRITORY_BLOCKED", territory);
    const site = new URL(c.req.url).host;
    const results = hits.map((h, i) => resultOf(deps, publisher, site, h, scoreOf(i, hits.length)));
    if (input.format === null) {
      if (input.stream) return streamAnswer(c, input.query, input.queryId, results);
      return c.json(answerBody(input.queryId, "conv_search", results));
    }
    const answer = answerBody(input.queryId, input.format, results);
    return input.stream ? streamEvents(c, answerEvents(answer)) : c.json(answer);
  } catch (err) {
    if (err instanceof NlwebFailure) return c.json(failureBody(err.code, err.message), err.status);
    throw err;
  }
}

/**
 * NLWeb's `score` is a 0–100 relevance. Folio's hybrid ranking fuses ranks and has no absolute
 * relevance, so the score states the rank: 100 for the first, falling evenly, above 0 for all.
 */
function scoreOf(rank: number, count: number): number {
  return Math.round(100 * (count - rank) / count);
}

/** One result: a schema.org object with the classic fields beside it. */
function resultOf(
  deps: AppDeps,
  publisher: Publisher,
  site: string,
  h: ArticleHit,
  score: number,
): Record<string, unknown> {
  const a = articleSummary(h.article);
  const license = licenseBlock(deps.config, publisher, h.decision);
  const schemaObject = {
    "@context": "https://schema.org",
    "@type": h.article.kind === "chapter" ? "Chapter" : "Article",
    "@id": a.url,
    url: a.url,
    headline: a.title,
    name: a.title,
    author: a.author ? { "@type": "Person", name: a.author } : undefined,
    datePublished: a.publishedAt ?? undefined,
    description: a.summary,
    keywords: a.tags,
    publisher: { "@type": "Organization", name: publisher.name },
    // schema.org `license` is a URL (or CreativeWork): the terms page.
    license: license.termsUrl,
  };
  return {
    ...schemaObject,
    site,
    score,
    schema_object: schemaObject,
    grounding: { source_urls: [a.url] },
    // Folio's machine-readable terms, under a name of its own beside schema.org's `license`.
    folio_license: license,
    // A suspended buyer is told here too why a priced result will not read (issue 38).
    ...(h.decision.outcome === "payment_overdue"
      ? {
        folio_status: "payment_overdue",
        folio_message: h.decision.reason,
        folio_invoice_url: h.decision.overdue!.url,
      }
      : {}),
  };
}

async function askInput(c: Context<PublishedEnv>): Promise<AskInput> {
  const params = new URL(c.req.url).searchParams;
  let rawQuery: unknown = params.get("query") ?? undefined;
  let rawLimit: unknown = wholeNumber(
    params.get("num_results") ?? params.get("limit") ?? undefined,
  );
  let mode: unknown = params.get("mode") ?? undefined;
  let format: ResponseFormat | null = null;
  let stream = false;
  if (c.req.method === "POST") {
    const body = askBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) {
      throw new NlwebFailure(
        400,
        "INVALID_REQUEST",
        'The body must be JSON: {"query": {"text": …}}',
      );
    }
    const q = body.data.query;
    rawQuery = typeof q === "string" ? q : q.text;
    if (typeof q !== "string") rawLimit = resultCount(q.num_results, q.max_results) ?? rawLimit;
    mode = body.data.prefer?.mode ?? mode;
    format = responseFormat(body.data.prefer?.response_format);
    stream = preferStreaming(body.data.prefer?.streaming, c.req.header("accept"));
  } else {
    stream = streamingParam(params.get("streaming"));
  }
  // Clients spell the mode `list` (NLWeb) or `List` (NLWebNet): the same mode.
  if (mode !== undefined && String(mode).toLowerCase() !== "list") {
    throw new NlwebFailure(
      400,
      "INVALID_REQUEST",
      "mode: only list is offered; summaries come from get_article under the license",
    );
  }
  const q = parseField(query, "query", rawQuery);
  if (!q.ok) throw new NlwebFailure(400, "INVALID_REQUEST", q.message);
  const n = parseField(limit, "num_results", rawLimit);
  if (!n.ok) throw new NlwebFailure(400, "INVALID_REQUEST", n.message);
  const given = params.get("query_id");
  const queryId = given && /^[\w-]{1,64}$/.test(given) ? given : `q_${randomBase62(12)}`;
  return { query: q.value, limit: n.value, queryId, format, stream };
}

/**
 * v0.54 names two counts: `num_results` retrieved, `max_results` returned after ranking. Folio
 * ranks once, so it returns the smaller; a value that is not a whole number goes on to be refused.
 */
function resultCount(retrieved: unknown, returned: unknown): unknown {
  const given = [retrieved, returned].filter((v) => v !== undefined);
  if (given.length === 0) return undefined;
  const bad = given.find((v) => !Number.isInteger(v));
  return bad ?? Math.min(...(given as number[]));
}

/** `prefer.response_format`: absent is conv_search (the protocol's own examples answer so). */
function responseFormat(raw: unknown): ResponseFormat {
  if (raw === undefined) return "conv_search";
  const f = RESPONSE_FORMATS.find((x) => x === raw);
  if (!f) {
    throw new NlwebFailure(
      400,
      "INVALID_REQUEST",
      `response_format: ${RESPONSE_FORMATS.join(" or ")}`,
    );
  }
  return f;
}

/**
 * v0.54 `prefer.streaming` (a boolean); absent, HTTP content negotiation decides: server-sent
 * events when the client accepts `text/event-stream` (the v0.54 HTTP binding, "Streaming").
 */
function preferStreaming(raw: unknown, accept: string | undefined): boolean {
  if (raw === undefined) return /\btext\/event-stream\b/i.test(accept ?? "");
  if (typeof raw !== "boolean") {
    throw new NlwebFailure(400, "INVALID_REQUEST", "prefer.streaming: true or false");
  }
  return raw;
}
