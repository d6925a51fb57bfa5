/**
 * Sponsor tools (docs/SPEC.md "MCP server"): a platform catalog of extra tools a publisher switches on
 * (`publisher.sponsorTools` lists the enabled ids; none by default). They appear in tools/list for
 * every client of that publisher. Each is computed locally from the store: no network call, so no
 * caller credential can ever travel anywhere (docs/TEST-PLAN.md 2.8).
 */
import { z } from "zod";
import { REQUEST_VIA } from "../../domain/licensing/mod.ts";
import { pricesInCents } from "../../platform/money.ts";
import { peekArticle } from "../../domain/reads/read_article.ts";
import { publisherUrls } from "../../platform/urls.ts";
import { toolError } from "./results.ts";
import { urlOrId } from "../../domain/reads/inputs.ts";
import { sponsorToolWords } from "../../domain/sponsor_tools.ts";
import { CITATION_STYLES } from "../../domain/reads/citation.ts";
import { citeArticle as cite } from "../../domain/reads/cite.ts";
import { defineTool, readDeps, type ToolDef } from "./tool_kit.ts";
import { publicRights } from "../../domain/licensing/rights.ts";

const citeArticle = defineTool({
  ...sponsorToolWords("cite_article"),
  schema: z.strictObject({
    url_or_id: urlOrId,
    style: z.enum(CITATION_STYLES).default("apa").describe(
      "Citation style: apa (APA 7), mla (MLA 9) or chicago (Chicago 17 bibliography)",
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(ctx, args) {
    const { article, decision } = await peekArticle(readDeps(ctx), {
      publisher: ctx.publisher,
      caller: ctx.caller,
      idOrUrl: args.url_or_id,
      use: "summarization",
    });
    if (!article || !decision) {
      return toolError(`No article has the id or URL "${args.url_or_id.slice(0, 200)}".`);
    }
    // Citing uses metadata only, but a blocked or territory-denied article is not shown at all.
    if (decision.outcome === "blocked" || decision.outcome === "territory_blocked") {
      return toolError(decision.reason, { status: decision.outcome });
    }
    const citation = await cite(ctx.deps.store.db, ctx.publisher, article, args.style);
    return {
      content: [{ type: "text", text: citation }],
      structuredContent: { style: args.style, citation, articleId: article.id },
    };
  },
});

const publisherInfo = defineTool({
  ...sponsorToolWords("publisher_info"),
  schema: z.strictObject({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run(ctx) {
    const p = ctx.publisher;
    const urls = publisherUrls(ctx.deps.config, p);
    const info = {
      name: p.name,
      description: p.description,
      rights: publicRights(p.rights),
      pricingUsdCents: pricesInCents(p.pricesMicros),
      paywallMeterLimit: p.paywallMeterLimit,
      termsUrl: urls.terms,
      mcpEndpoint: urls.mcp,
      enterpriseLicense: p.enterpriseTerms !== null,
      requestVia: REQUEST_VIA,
    };
    const granted = Object.entries(info.rights).filter(([, v]) => v).map(([k]) => k);
    return Promise.resolve({
      content: [{
        type: "text",
        text: `${p.name}: ${p.description}\nGranted uses: ${granted.join(", ") || "none"}. ` +
          `Per-use prices on paid articles (US cents): display ${info.pricingUsdCents.display}, ` +
          `summarization ${info.pricingUsdCents.summarization}, rag ${info.pricingUsdCents.rag}. ` +
          `Terms: ${urls.terms}. ${REQUEST_VIA}`,
      }],
      structuredContent: info,
    });
  },
});

/** The platform's sponsor tool catalog, by id. */
export const SPONSOR_TOOLS: ReadonlyMap<string, ToolDef> = new Map(
  [citeArticle, publisherInfo].map((t) => [t.name, t]),
);

/** The sponsor tools a publisher has enabled, in catalog order (unknown ids are ignored). */
export function enabledSponsorTools(enabled: readonly string[]): ToolDef[] {
  return [...SPONSOR_TOOLS.values()].filter((t) => enabled.includes(t.name));
}
