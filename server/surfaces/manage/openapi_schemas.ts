/**
 * Response and input shapes of the management API that have no parser of their own here: the
 * answers of signup/login/lists, and the ingestion and license-request routes whose shapes
 * docs/DESIGN.md §6 gives (their routes live in ingest_routes.ts and license_request_routes.ts).
 */
import { z } from "zod";
import { URL_STATES } from "../../../store/sources.ts";
import { USE_CASES } from "../../../store/vocabulary.ts";
import { passageSchema } from "../../domain/reads/present_schemas.ts";
import { effectiveSchema, managedArticleSchema, ruleSchema } from "./schemas.ts";

/** Platform error body (docs/DESIGN.md §6 "Errors"). */
export const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    param: z.string().optional().meta({
      description: "The input field at fault (`email`, `branding.logoUrl`, `territories[0]`), " +
        "when the error is about one",
    }),
  }),
});

/** GET /api/publisher/session. */
export const sessionSchema = z.object({
  publisherId: z.string(),
  slug: z.string(),
  name: z.string(),
  via: z.enum(["session", "key"]),
  email: z.string().nullable(),
  csrfToken: z.string().nullable(),
  expiresAt: z.string().nullable(),
});

const activityTotals = z.object({
  calls: z.int(),
  errors: z.int(),
  reads: z.int(),
  chargedReads: z.int(),
  earningsUsdCents: z.int().meta({
    description: "Your prices on the reads charged in the window (metered and landing-page, by " +
      "the day of the read; license fees are not in it), summed exactly and rounded once",
  }),
  platformFeesUsdCents: z.int(),
});

/** GET /api/publisher/analytics. */
export const analyticsSchema = z.object({
  days: z.int(),
  from: z.string(),
  to: z.string(),
  surfaces: z.array(z.string()),
  daily: z.array(z.object({
    day: z.string(),
    calls: z.record(z.string(), z.int()),
    errors: z.int(),
    reads: z.int(),
    chargedReads: z.int(),
    earningsUsdCents: z.int(),
    platformFeesUsdCents: z.int(),
  })),
  totals: activityTotals,
  month: activityTotals.extend({ month: z.string() }),
  topIntents: z.array(z.object({ prompt: z.string(), count: z.int(), lastAt: z.string() })),
});

/** 201 of POST /api/publishers/signup; `apiKey` is shown this once. */
export const signupResponseSchema = z.object({
  publisherId: z.string(),
  slug: z.string(),
  apiKey: z.string().regex(/^pk_[0-9A-Za-z]{38}$/),
});

/** 200 of POST /api/publishers/login (the session itself travels in the folio_session cookie). */
export const loginResponseSchema = z.object({
  publisherId: z.string(),
  csrfToken: z.string(),
  expiresAt: z.iso.datetime(),
});

/** GET /api/publisher/articles. */
export const articlePageSchema = z.object({
  articles: z.array(managedArticleSchema),
  total: z.int(),
  limit: z.int(),
  offset: z.int(),
  nextOffset: z.int().nullable(),
});

/** GET /api/publisher/rules. */
export const ruleListSchema = z.object({ rules: z.array(ruleSchema) });

/** Who asked: a buyer (key), an OAuth install, an anonymous caller, or the publisher itself. */
export const callerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("buyer"), buyerId: z.string(), name: z.string().nullable() }),
  z.object({
    kind: z.literal("oauth"),
    clientId: z.string(),
    clientName: z.string().nullable(),
    email: z.string().nullable(),
    buyerId: z.string().optional(),
  }),
  z.object({ kind: z.literal("anonymous") }),
  z.object({ kind: z.literal("publisher") }),
]);

/** GET /api/publisher/intents: the end users' prompts behind reads, newest first. */
export const intentListSchema = z.object({
  intents: z.array(z.object({
    articleId: z.string(),
    prompt: z.string(),
    surface: z.string(),
    at: z.iso.datetime(),
    caller: callerSchema,
  })),
});

/** GET /api/publisher/coverage (docs/SPEC.md "Embedding coverage"). */
export const coverageSchema = z.object({ embedded: z.int(), total: z.int() });

/** POST /api/publisher/jobs body. */
export const jobInputSchema = z.strictObject({
  kind: z.enum(["drain", "sync"], { error: "must be drain or sync" }),
});

/** 202 of POST /api/publisher/jobs: the queued job. */
/** An ingestion job (docs/SPEC.md "Other records"); counts are live while it runs. */
/** What a site's sync found (server/domain/catalog/site_discovery.ts). */
export const siteDiscoverySchema = z.looseObject({
  documents: z.array(z.looseObject({
    url: z.string(),
    kind: z.enum([
      "urlset",
      "sitemapindex",
      "rss",
      "rdf",
      "atom",
      "json",
      "text",
      "unknown",
      "page",
    ])
      .meta({
        description: "What the document was: a sitemap, an index, a feed, a text sitemap, or the " +
          "site's page (whose feed links were followed)",
      }),
    found: z.enum(["site", "robots.txt", "guess", "page", "index"]).meta({
      description: "How it was found: the site's address, robots.txt's Sitemap lines, " +
        "/sitemap.xml, a page's feed link, a sitemap index",
    }),
    listed: z.int().meta({
      description: "Pages it listed (for an index, sitemaps; a page, feeds)",
    }),
    problem: z.string().nullable(),
  })).optional(),
  pages: z.int().optional().meta({ description: "Pages of the site listed" }),
  offSite: z.int().optional().meta({ description: "Listed URLs on other hosts, left out" }),
  problems: z.array(z.string()).optional(),
});

export const jobSchema = z.object({
  id: z.string(),
  kind: z.enum(["drain", "sync"]),
  scope: z.enum(["publisher", "urls"]).meta({
    description: "publisher: the publisher's URLs at large; urls: those of an upload or a retry",
  }),
  sourceId: z.string().nullable().meta({ description: "The upload the job was started for" }),
  state: z.enum(["queued", "running", "finished"]),
  outcome: z.enum(["SUCCEEDED", "FAILED", "CANCELLED"]).nullable(),
  discovered: z.int(),
  ingested: z.int(),
  unchanged: z.int(),
  failed: z.int(),
  cancelled: z.int().meta({ description: "Queued URLs released when the job was cancelled" }),
  unpublished: z.int().meta({
    description: "Pages that answered 404 or 410; their articles were unpublished",
  }),
  discovery: siteDiscoverySchema.nullable().meta({
    description: "A site's sync: what it found in the site's sitemaps and feeds (null otherwise, " +
      "or before it has looked)",
  }),
  reason: z.string().nullable(),
  reasons: z.record(z.string(), z.int()),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
});

/** POST /api/publisher/jobs: the job queued, or the one of that kind already active. */
export const jobQueuedSchema = z.object({
  jobId: z.string(),
  created: z.boolean().meta({
    description: "false: a job of that kind was already active, and this is it",
  }),
  job: jobSchema,
});

/** POST /api/publisher/sources answer: the upload and the drain job it started. */
export const sourceResponseSchema = z.object({
  sourceId: z.string(),
  accepted: z.int(),
  rejected: z.array(z.looseObject({ reason: z.string() })),
  queued: z.int(),
  duplicate: z.boolean(),
  jobId: z.string().nullable().meta({
    description: "The job ingesting the upload (a duplicate: the upload's latest job); " +
      "null when nothing new was queued",
  }),
  job: jobSchema.nullable(),
});

/** POST /api/publisher/books: a file, its metadata and the author-contract rights ceiling. */
export const bookUploadSchema = z.object({
  file: z.string().meta({ format: "binary", description: "PDF, Markdown or plain text" }),
  title: z.string(),
  author: z.string(),
  ...Object.fromEntries(USE_CASES.map((u) => [
    u,
    z.enum(["on", "true", "1", "yes", "false", "0", "no", "off"]).optional().meta({
      description: `Author-contract checkbox: ${u} may be licensed (unticked means denied)`,
    }),
  ])),
});

/** POST /api/publisher/books answer. */
export const bookResponseSchema = z.looseObject({
  bookId: z.string(),
  chapters: z.int(),
  format: z.enum(["pdf", "markdown", "text"]),
  titles: z.array(z.string()),
});

/** A book (store/books.ts `Book`); its chapters are articles of kind "chapter". */
export const bookSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  format: z.enum(["pdf", "markdown", "text"]),
  originalName: z.string().nullable().meta({ description: "The uploaded file's name" }),
  chapters: z.int(),
  rightsCeiling: z.record(z.string(), z.boolean()),
  createdAt: z.iso.datetime(),
});

/** GET /api/publisher/books. */
export const bookListSchema = z.object({ books: z.array(bookSchema) });

// Every state named as a property (a record keyed by an enum would require names it never defines).
const urlCounts = z.strictObject(
  Object.fromEntries(URL_STATES.map((state) => [state, z.int()])) as Record<
    typeof URL_STATES[number],
    z.ZodInt
  >,
);

/** GET /api/publisher/sources: uploads and where their URLs stand. */
export const sourceListSchema = z.object({
  sources: z.array(z.looseObject({
    id: z.string(),
    kind: z.enum(["csv", "site"]).meta({ description: "An uploaded CSV, or a site (GET /sites)" }),
    siteUrl: z.string().nullable().meta({ description: "A site's address" }),
    lastSyncedAt: z.iso.datetime().nullable().meta({
      description: "When a site's latest sync was queued",
    }),
    syncEveryHours: z.int().nullable().meta({
      description: "How often a site is synced, in hours (null for an upload)",
    }),
    originalName: z.string().nullable().meta({ description: "The uploaded file's name" }),
    accepted: z.int(),
    rejected: z.int(),
    urls: urlCounts.meta({ description: "The upload's URLs by state (cancelled included)" }),
    jobId: z.string().nullable().meta({ description: "The upload's latest job" }),
    createdAt: z.iso.datetime(),
  })),
  urls: urlCounts,
});

/** GET /api/publisher/sources/urls: the per-URL report with reasons. */
export const sourceUrlListSchema = z.object({
  urls: z.array(z.looseObject({
    url: z.string(),
    sourceId: z.string().nullable(),
    title: z.string().nullable().meta({ description: "The title the upload gave, if any" }),
    state: z.enum(URL_STATES),
    reason: z.string().nullable(),
    articleId: z.string().nullable(),
    attempts: z.int(),
    jobId: z.string().nullable().meta({
      description: "The job that owns it while queued, then the job that last processed it",
    }),
    lastAttemptAt: z.iso.datetime().nullable(),
  })),
});

/** GET /api/publisher/jobs: the last 50 jobs. */
export const jobListSchema = z.object({ jobs: z.array(z.looseObject(jobSchema.shape)) });

/** The offer an approval makes; the buyer accepts (billed then) or declines it, or it expires. */
export const licenseOfferSchema = z.object({
  id: z.string(),
  kind: z.enum(["request", "enterprise"]),
  useCases: z.array(z.enum(USE_CASES)),
  monthlyPriceUsdCents: z.number(),
  termMonths: z.int().nullable(),
  note: z.string().nullable(),
  state: z.enum(["open", "accepted", "declined", "expired"]),
  expiresAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  licenseId: z.string().nullable().describe("The license accepting created"),
  declineReason: z.string().nullable().describe("The buyer's reason for declining"),
});

/** A license request from an agent (request_license MCP tool), with the publisher's decision. */
export const licenseRequestSchema = z.looseObject({
  id: z.string(),
  useCase: z.enum(USE_CASES),
  enterprise: z.boolean(),
  state: z.enum(["pending", "approved", "denied"]),
  message: z.string(),
  contact: z.string().nullable(),
  buyerId: z.string().nullable(),
  licenseId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  requester: callerSchema,
  buyerName: z.string().nullable(),
  rightsAsked: z.array(z.enum(USE_CASES)),
  monthlyPriceUsdCents: z.number().nullable(),
  termMonths: z.int().nullable(),
  reason: z.string().nullable(),
  maxMonthlyUsdCents: z.number().nullable().describe("The most the buyer said it will pay a month"),
  offer: licenseOfferSchema.nullable().describe("The offer the approval made; null until approved"),
});

/** GET /api/publisher/license-requests: newest first. */
export const licenseRequestListSchema = z.object({
  requests: z.array(licenseRequestSchema),
});

/** POST /api/publisher/license-requests/{id}/approve answer: the request and the offer it made. */
export const licenseApprovalResponseSchema = z.object({
  request: licenseRequestSchema,
  offer: licenseOfferSchema,
});

/** GET /api/publisher/earnings: the publisher's revenue by statement month, newest first. */
export const earningsSchema = z.object({
  currency: z.literal("usd"),
  months: z.array(z.object({
    month: z.string().meta({ examples: ["2026-11"] }),
    meteredUsdCents: z.int(),
    landingUsdCents: z.int(),
    subscriptionUsdCents: z.int(),
    adjustmentsUsdCents: z.int().meta({ description: "Credit notes (accepted disputes), <= 0" }),
    earningsUsdCents: z.int().meta({
      description: "Your prices on the month's statements, summed exactly and rounded once; " +
        "the four parts add up to it (each rounded up or down so they do)",
    }),
    platformFeesUsdCents: z.int(),
    chargedReads: z.int(),
    payout: z.object({
      state: z.enum(["accruing", "pending", "paid"]).meta({
        description: "accruing: the month is in progress; pending: the month is over, the " +
          "payout is due and not paid yet; paid",
      }),
      amountUsdCents: z.int(),
    }),
  })),
});

// Issue 11, part 2: the lifecycle operations of the publisher console.

/** POST /api/publisher/key/rotate: the new key, shown this once. */
export const keyResponseSchema = z.object({ apiKey: z.string().regex(/^pk_[0-9A-Za-z]{38}$/) });

/** GET /api/publisher/rules/explain. */
export const explainSchema = z.object({
  url: z.string(),
  path: z.string(),
  country: z.string().nullable(),
  at: z.iso.datetime(),
  rule: ruleSchema.nullable(),
  denials: z.array(ruleSchema),
  effective: effectiveSchema,
  article: managedArticleSchema.nullable(),
});

/** POST /api/publisher/playground/passages: what a buyer's retrieve_passages returns, uncharged. */
export const playgroundPassagesResponseSchema = z.object({
  count: z.int(),
  results: z.array(passageSchema.extend({ wouldChargeUsdCents: z.number() })),
});
