/**
 * POST /api/publisher/articles/bulk and GET/PUT /api/publisher/article-defaults (issue 34): one
 * policy and price change for many articles, chosen by id or by the catalog's filters, and the
 * terms new articles get.
 */
import { z } from "zod";
import { POLICIES } from "../../../store/vocabulary.ts";
import { articlePatchSchema, MAX_PRICE_CENTS } from "./schemas.ts";

/** At most this many articles change in one request. */
export const BULK_MAX = 10_000;
const ID_MAX = 200;
/**
 * The route's body limit: BULK_MAX ids of ID_MAX characters, quoted and comma-separated, and room
 * for the rest, so every body the schema accepts fits (the platform's 64 KiB held about 3,200).
 */
export const BULK_BODY_LIMIT = BULK_MAX * (ID_MAX + 3) + 16 * 1024;

const cents = z.number().min(0).max(MAX_PRICE_CENTS);

/** The catalog filters of GET /api/publisher/articles, as a bulk change's selection. */
export const articleFilterSchema = z.strictObject({
  q: z.string().trim().max(200).optional(),
  /** The effective policy (after content rules, for a reader from `country`). */
  policy: z.enum(POLICIES).optional(),
  /** The policy stored on the article. */
  storedPolicy: z.enum(POLICIES).optional(),
  kind: z.enum(["article", "chapter"]).optional(),
  published: z.boolean().optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/, { error: "must be a two-letter country code" })
    .transform((c) => c.toUpperCase()).optional(),
});

/** POST /api/publisher/articles/bulk body. */
export const articleBulkSchema = z.strictObject({
  /** The articles to change, by id (or `filter`, not both). */
  ids: z.array(z.string().min(1).max(ID_MAX)).min(1).max(BULK_MAX).optional(),
  /** Every article the catalog lists with these filters (an empty filter: the whole catalog). */
  filter: articleFilterSchema.optional(),
  /** What to set: a policy, a price override in US cents (null clears it), or both. */
  set: articlePatchSchema,
  /** true: count what would change and change nothing (the console's confirmation). */
  dryRun: z.boolean().default(false),
}).refine((b) => (b.ids === undefined) !== (b.filter === undefined), {
  error: "give either ids or filter",
  path: ["ids"],
});

/** The answer of POST /api/publisher/articles/bulk. */
export const articleBulkResultSchema = z.object({
  dryRun: z.boolean(),
  matched: z.int().meta({ description: "Articles selected" }),
  changed: z.int().meta({
    description: "Of those, the ones whose policy or price the change alters (or would alter)",
  }),
});

/** GET /api/publisher/article-defaults answer and PUT body. */
export const articleDefaultsSchema = z.strictObject({
  policy: z.enum(POLICIES),
  priceUsdCents: cents.nullable().meta({
    description: "The per-article price override new articles get; null: none, the " +
      "publisher's per-use prices apply",
  }),
});
