/**
 * The wire shapes of server/domain/reads/present.ts and license_block.ts as zod schemas, for the OpenAPI
 * document of every API that returns articles (REST, the playground of the management API).
 */
import { z } from "zod";
import { USE_CASES } from "../../../store/vocabulary.ts";

/** An article as search and listings show it (server/domain/reads/present.ts `articleSummary`). */
export const articleSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  author: z.string(),
  publishedAt: z.iso.datetime().nullable(),
  summary: z.string(),
  tags: z.array(z.string()),
});

/** The three fields that name an article when nothing of it is served. */
export const articleRefSchema = articleSummarySchema.pick({ id: true, url: true, title: true });

/** The license block of docs/SPEC.md "License block". */
export const licenseBlockSchema = z.object({
  licensor: z.string(),
  rights: z.object(Object.fromEntries(USE_CASES.map((u) => [u, z.enum(["granted", "denied"])]))),
  pricingUsdCents: z.object({
    summarization: z.number(),
    display: z.number(),
    rag: z.number(),
  }).describe("Per-use prices in US cents (0 unless the article's policy is PAYWALL)"),
  termsUrl: z.string(),
  requestVia: z.string(),
});

/** A retrieved passage with its article and license block (`passageResult`). */
export const passageSchema = z.object({
  chunkId: z.string(),
  section: z.string(),
  text: z.string(),
  score: z.number(),
  article: articleSummarySchema,
  license: licenseBlockSchema,
});
