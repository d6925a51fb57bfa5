/**
 * GET /api/marketplace/catalog (docs/SPEC.md "Buyer marketplace API"): every publisher with content,
 * what it grants, what it charges per use, where its MCP server is, and the standard rate card.
 */
import { Hono } from "hono";
import { countsByPublisher } from "../../../store/articles.ts";
import { listPublishers, type Publisher } from "../../../store/publishers.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { microsToCents, pricesInCents, RATE_CARD } from "../../platform/money.ts";
import { offered, openToAnonymous } from "../../domain/licensing/reach.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { publicRights, rightsWords } from "../../domain/licensing/rights.ts";

/** The public catalog route (no auth, CORS-open). */
export function catalogRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/catalog", async (c) => {
    const counts = await countsByPublisher(deps.store.db);
    const publishers = (await listPublishers(deps.store.db))
      .filter((p) => counts.has(p.id))
      .map((p) => catalogEntry(deps, p, counts.get(p.id)!));
    c.header("Access-Control-Allow-Origin", "*");
    return c.json({ publishers, rateCard: rateCard() });
  });
  return app;
}

function catalogEntry(
  deps: AppDeps,
  p: Publisher,
  counts: { articles: number; chapters: number },
) {
  const urls = publisherUrls(deps.config, p);
  return {
    publisherId: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    articleCount: counts.articles + counts.chapters,
    chapterCount: counts.chapters,
    // What anyone is granted, by the one rights table (docs/decisions/licensing.md).
    rights: rightsWords(publicRights(p.rights)),
    pricingUsdCents: pricesInCents(p.pricesMicros),
    paywallMeterLimit: p.paywallMeterLimit,
    mcpEndpoint: urls.mcp,
    restApi: urls.rest,
    a2aEndpoint: offered(p, "a2a") ? urls.a2a : null,
    // The agent card an A2A client starts from (the buyer portal's connection snippets).
    a2aCardUrl: offered(p, "a2a") ? urls.agentCard : null,
    termsUrl: urls.terms,
    requiresAuth: !openToAnonymous(p, "mcp"),
    enterpriseLicense: p.enterpriseTerms
      ? {
        useCases: p.enterpriseTerms.useCases,
        monthlyPriceUsdCents: microsToCents(p.enterpriseTerms.monthlyPriceMicros),
        conditions: p.enterpriseTerms.conditions,
      }
      : null,
  };
}

/** The standard monthly rate card (docs/SPEC.md "Rate card"), in US cents. */
export function rateCard() {
  return {
    currency: "usd",
    period: "month",
    baseUsdCents: microsToCents(RATE_CARD.base),
    useCasesUsdCents: pricesInCents(RATE_CARD),
    fineTuning: "not in the standard bundle; ask the publisher with the request_license MCP tool",
  };
}
