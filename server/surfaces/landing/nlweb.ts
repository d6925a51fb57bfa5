/**
 * NLWeb `ask` on the publisher's host (docs/SPEC.md "Events": logged `_nlweb:ask`), list mode:
 * the same search, access decision and visibility as every surface, answered as schema.org Article
 * objects that carry Folio's license block. Both request forms are read: the classic query string
 * (`GET /ask?query=…&mode=list`) and the v0.54 JSON body (`POST {"query": {"text": …}}`). Each
 * result has the classic fields (`url`, `name`, `site`, `description`, `schema_object`) and is
 * itself a schema.org object, so clients of either generation read it.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { callerOf } from "../../platform/envelope.ts";
import { AppError } from "../../platform/errors.ts";
import { limit, parseField, query, wholeNumber } from "../../domain/reads/inputs.ts";
import { licenseBlock } from "../../domain/reads/license_block.ts";
import { articleSummary } from "../../domain/reads/present.ts";
import { searchArticles } from "../../domain/reads/search.ts";
import { randomBase62 } from "../../platform/secrets.ts";

/** The v0.54 request body (fields we do not use are allowed and ignored). */
const askBody = z.object({
  query: z.union([
    z.string(),
    z.object({ text: z.unknown(), num_results: z.unknown().optional() }),
  ]),
  prefer: z.object({ mode: z.unknown().optional() }).optional(),
});

/** GET|POST /ask. */
export async function nlwebAsk(deps: AppDeps, c: Context<PublishedEnv>): Promise<Response> {
  const input = await askInput(c);
  const publisher = c.get("publisher");
  const { hits } = await searchArticles(
    { db: deps.store.db, clock: deps.clock, search: deps.search },
    { publisher, query: input.query, limit: input.limit, caller: callerOf(c, deps, "nlweb") },
  );
  const site = new URL(c.req.url).host;
  const results = hits.map((h) => {
    const a = articleSummary(h.article);
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
      license: licenseBlock(deps.config, publisher, h.decision).termsUrl,
    };
    return {
      ...schemaObject,
      site,
      description: a.summary,
      schema_object: schemaObject,
      license: licenseBlock(deps.config, publisher, h.decision),
    };
  });
  return c.json({
    query_id: input.queryId,
    _meta: { response_type: "answer", version: "0.54" },
    results,
  });
}

async function askInput(
  c: Context<PublishedEnv>,
): Promise<{ query: string; limit: number; queryId: string }> {
  const params = new URL(c.req.url).searchParams;
  let rawQuery: unknown = params.get("query") ?? undefined;
  let rawLimit: unknown = wholeNumber(
    params.get("num_results") ?? params.get("limit") ?? undefined,
  );
  let mode: unknown = params.get("mode") ?? undefined;
  if (c.req.method === "POST") {
    const body = askBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) {
      throw new AppError(400, "invalid_request", 'The body must be JSON: {"query": {"text": …}}');
    }
    const q = body.data.query;
    rawQuery = typeof q === "string" ? q : q.text;
    if (typeof q !== "string" && q.num_results !== undefined) rawLimit = q.num_results;
    mode = body.data.prefer?.mode ?? mode;
  }
  if (mode !== undefined && mode !== "list") {
    throw new AppError(
      400,
      "unsupported_mode",
      "mode: only list is offered; summaries come from get_article under the license",
    );
  }
  const q = parseField(query, "query", rawQuery);
  if (!q.ok) throw new AppError(400, "invalid_request", q.message);
  const n = parseField(limit, "num_results", rawLimit);
  if (!n.ok) throw new AppError(400, "invalid_request", n.message);
  const given = params.get("query_id");
  const queryId = given && /^[\w-]{1,64}$/.test(given) ? given : `q_${randomBase62(12)}`;
  return { query: q.value, limit: n.value, queryId };
}
