/**
 * The publisher REST API's answers (docs/SPEC.md "Publisher REST API" and "Errors"), for the
 * OpenAPI document (server/surfaces/openapi/rest.ts). Its inputs are the shared read inputs
 * (server/domain/reads/inputs.ts), which the document quotes directly.
 */
import { z } from "zod";
import { POLICIES } from "../../../store/vocabulary.ts";
import {
  articleRefSchema,
  articleSummarySchema,
  licenseBlockSchema,
  passageSchema,
} from "../../domain/reads/present_schemas.ts";

const policy = z.enum(POLICIES);

/** GET .../articles/search. */
export const searchResponseSchema = z.object({
  count: z.int(),
  mode: z.enum(["hybrid", "fts", "semantic", "none"]).describe(
    "Which search legs contributed: hybrid fuses semantic and full-text by reciprocal rank",
  ),
  results: z.array(articleSummarySchema.extend({
    match: z.object({
      chunkId: z.string().describe("<articleId>#<n>"),
      section: z.string(),
      snippet: z.string().describe("About 240 characters of the matching passage"),
    }).optional().describe("Semantic hits only"),
  })),
  withheld: z.int().min(1).optional().describe(
    "How many hits the publisher's content rules withhold in the caller's region (absent: none)",
  ),
});

/** GET .../passages/search. */
export const passagesResponseSchema = z.object({
  count: z.int(),
  results: z.array(passageSchema),
  withheld: z.int().min(1).optional().describe(
    "How many articles the publisher's content rules withhold in the caller's region (absent: none)",
  ),
  charges: z.array(z.object({
    articleId: z.string(),
    chargedUsdCents: z.number(),
    chargeId: z.string(),
    receiptId: z.string(),
    receipt: z.string().describe("Compact JWS (EdDSA) over the charge item"),
  })).optional().describe(
    "When articles were charged (one rag read each): each charge and its signed receipt",
  ),
});

/** 200 of GET .../articles/{idOrUrl}: the full article (docs/SPEC.md "Publisher REST API"). */
export const articleFullSchema = z.object({
  message: z.string().describe(
    "The decision's sentence: on what terms it was served, what to cite",
  ),
  article: articleSummarySchema.extend({
    body: z.string(),
    policy,
    kind: z.enum(["article", "chapter"]),
    bookId: z.string().optional().describe("Book chapters only"),
    chapter: z.int().optional().describe("Book chapters only"),
  }),
  license: licenseBlockSchema,
}).describe("The full article");

/** 200 license_limited: the summary only (summarization license, or the metered cap reached). */
export const licenseLimitedSchema = z.object({
  status: z.literal("license_limited"),
  message: z.string(),
  article: articleSummarySchema.extend({ policy }),
  license: licenseBlockSchema,
}).describe("license_limited: the summary only");

/** 200 blocked: the publisher blocks the article for AI agents (policy BLOCKED). */
export const blockedSchema = z.object({
  status: z.literal("blocked"),
  message: z.string(),
  article: articleRefSchema,
}).describe("blocked: the publisher blocks the article for AI agents");

/** 403 license_denied. */
export const licenseDeniedSchema = z.object({
  status: z.literal("license_denied"),
  message: z.string(),
  article: articleRefSchema,
  license: licenseBlockSchema,
});

/** 451 territory_blocked. */
export const territoryBlockedSchema = z.object({
  status: z.literal("territory_blocked"),
  message: z.string(),
});

/** 402 payment_required: an anonymous caller past the paywall meter. */
export const paymentRequiredSchema = z.object({
  status: z.literal("payment_required"),
  message: z.string(),
  article: articleSummarySchema.extend({ policy }),
  price: z.object({ usdCents: z.number(), quoteUsdCents: z.number().nullable() }),
  signup: z.string().describe("Where to sign up as a buyer"),
  subscribe: z.string().describe("Where to buy a monthly license"),
  requestLicense: z.string(),
  termsUrl: z.string(),
  license: licenseBlockSchema,
});

/** 402 payment_overdue: a suspended buyer's priced read (docs/decisions/billing.md "Suspension"). */
export const paymentOverdueSchema = z.object({
  status: z.literal("payment_overdue"),
  message: z.string(),
  invoiceNumber: z.string().nullable().describe("The overdue invoice; null: suspended by hand"),
  invoiceUrl: z.string().describe("Where to see and pay it"),
});

/** The two 402s: a caller past the paywall meter, or a suspended buyer. */
export const paymentSchemas = z.union([paymentRequiredSchema, paymentOverdueSchema]);

/** Every other refusal: docs/SPEC.md "Errors" status values and one sentence. */
export const restErrorSchema = z.object({
  status: z.string().describe("e.g. invalid_request, article_not_found, rest_api_disabled"),
  message: z.string(),
});
