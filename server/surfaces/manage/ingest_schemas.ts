/**
 * Inputs and answers of the ingestion lifecycle routes (issue 11): cancel, retry, removal, book
 * detail and deletion. The routes parse with these and the OpenAPI document is generated from them.
 */
import { z } from "zod";
import { URL_STATES } from "../../../store/sources.ts";
import { hasControlChars } from "../../platform/validate.ts";
import { bookSchema, jobSchema, sourceListSchema } from "./openapi_schemas.ts";

/** At most this many URLs per removal request. */
export const MAX_REMOVE_URLS = 1000;

/** POST /jobs/:id/cancel body (optional as a whole). */
export const cancelInputSchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).refine((s) => !hasControlChars(s), {
    error: "must not contain control characters",
  }).optional().meta({ description: 'Recorded on the job; default "Cancelled by the publisher"' }),
});

/** POST /sources/urls/remove body. */
export const removeUrlsInputSchema = z.strictObject({
  urls: z.array(z.string().min(1).max(2048)).min(1).max(MAX_REMOVE_URLS).meta({
    description: "URLs as uploaded (normalised as the CSV import does)",
  }),
});

/** GET /sources/urls query (other parameters are ignored, as before the filters existed). */
export const urlQuerySchema = z.object({
  state: z.enum(URL_STATES).optional(),
  sourceId: z.string().min(1).max(64).optional(),
  jobId: z.string().min(1).max(64).optional(),
});

/** An answer naming a job: its id and the job itself. */
const namedJob = { jobId: z.string(), job: jobSchema };

/** POST /jobs/:id/cancel answer. */
export const cancelResponseSchema = z.object({
  ...namedJob,
  released: z.int().meta({ description: "Queued URLs released (now in state cancelled)" }),
});

/** POST /jobs/:id/retry and POST /sources/:id/retry answer. */
export const retryResponseSchema = z.object({
  ...namedJob,
  requeued: z.int().meta({ description: "Failed or cancelled URLs queued again for the job" }),
});

const kept = {
  articlesKept: z.int().meta({ description: "Removed URLs whose article stays published" }),
  note: z.string(),
};

/** DELETE /sources/:id answer. */
export const sourceRemovalSchema = z.object({
  sourceId: z.string(),
  removed: z.int(),
  ...kept,
  cancelledJobs: z.array(z.string()),
});

/** POST /sources/urls/remove answer. */
export const urlRemovalSchema = z.object({
  removed: z.int(),
  notFound: z.int().meta({ description: "Given URLs that were not listed" }),
  ...kept,
});

/** GET /books/:id answer. */
export const bookDetailSchema = bookSchema.extend({
  contents: z.array(z.object({
    number: z.int(),
    title: z.string(),
    articleId: z.string(),
    words: z.int(),
  })),
});

/** DELETE /books/:id answer. */
export const bookRemovalSchema = z.object({
  bookId: z.string(),
  chaptersRemoved: z.int(),
  note: z.string(),
});

const syncEveryHours = z.int().min(1).max(168).meta({
  description: "How often the site is synced, in hours (1 to 168; daily when not given)",
});

/** POST /sites body. */
export const siteInputSchema = z.strictObject({
  url: z.string().trim().min(1).max(2048).meta({
    description: "The site's address, e.g. https://example.com/ (its robots.txt Sitemap lines, " +
      "/sitemap.xml and the feeds its page links are read from there)",
  }),
  syncEveryHours: syncEveryHours.optional(),
});

/** PATCH /sites/:id body. */
export const sitePatchSchema = z.strictObject({ syncEveryHours });

/** A site: a source of kind site, with its URLs by state and latest job. */
export const siteSchema = sourceListSchema.shape.sources.element;

/** POST /sites answer. */
export const siteAddedSchema = z.object({ site: siteSchema, ...namedJob });

/** GET /sites answer. */
export const siteListSchema = z.object({ sites: z.array(siteSchema) });

/** POST /sites/:id/sync answer. */
export const siteSyncSchema = z.object({
  ...namedJob,
  created: z.boolean().meta({
    description: "false: a sync of the site was already queued or running, and this is it",
  }),
});
