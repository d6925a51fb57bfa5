/**
 * The management API's input and output schemas (docs/DESIGN.md §6). Routes parse with them and
 * GET /api/openapi.json is generated from them, so the document cannot drift from the code.
 */
import { z } from "zod";
import { POLICIES, USE_CASES } from "../../../store/vocabulary.ts";
import {
  asciiHostname,
  hasControlChars,
  isEmail,
  isHostname,
  isSlug,
} from "../../platform/validate.ts";
import { limit, query } from "../../domain/reads/inputs.ts";
import { SPONSOR_TOOL_IDS } from "../../domain/sponsor_tools.ts";
import { METERED_CAP_MICROS, microsToCents } from "../../platform/money.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../domain/accounts/passwords.ts";
import { isCountryCode } from "./territories.ts";
import { crawlerFamily } from "../../domain/crawlers/crawlers.ts";

/** Highest per-use price accepted, in cents (1,000 USD, the monthly metered cap per publisher). */
export const MAX_PRICE_CENTS = microsToCents(METERED_CAP_MICROS);

const text = (max: number) =>
  z.string().trim().min(1).max(max).refine((s) => !hasControlChars(s), {
    error: "must not contain control characters",
  });

const cents = z.number().min(0).max(MAX_PRICE_CENTS);

const httpsUrl = z.string().max(2048).refine(isHttpsUrl, { error: "must be an https:// URL" });

const unique = <T>(items: T[]) => new Set(items).size === items.length;

/** `branding` of the settings. */
export const brandingSchema = z.strictObject({
  logoUrl: httpsUrl.nullable(),
  primaryColor: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, {
    error: "must be a hex color such as #0f766e",
  }).nullable(),
  // Only characters a CSS font-family list needs, so the value is inert wherever it is placed.
  font: z.string().max(100).regex(/^[A-Za-z0-9 ,'"-]+$/, {
    error: "may contain only letters, digits, spaces, commas, hyphens and quotes",
  }).nullable(),
});

/** `toggles` of the settings. */
export const togglesSchema = z.strictObject({
  publicRest: z.boolean(),
  a2a: z.boolean(),
  mcpApps: z.boolean(),
  requireAuth: z.boolean(),
  consentScreen: z.boolean(),
  subscriptionLinking: z.boolean(),
});

/** `rights` of the settings (docs/SPEC.md "Content license"). */
export const rightsSchema = z.strictObject({
  summarization: z.boolean(),
  display: z.boolean(),
  rag: z.boolean(),
  fine_tuning: z.boolean(),
});

/** Per-use prices in US cents; fractional cents allowed (docs/DESIGN.md §4 "Money"). */
export const pricingSchema = z.strictObject({
  summarization: cents,
  display: cents,
  rag: cents,
});

/** Enterprise license terms offered through the request_license workflow. */
export const enterpriseTermsSchema = z.strictObject({
  useCases: z.array(z.enum(USE_CASES)).min(1).refine(unique, {
    error: "must not repeat a use case",
  }),
  monthlyPriceUsdCents: z.int().min(0).max(100_000_000),
  conditions: z.string().max(4000).refine((s) => !hasControlChars(s), {
    error: "must not contain control characters",
  }),
});

const crawlerAction = z.enum(["allow", "charge", "block"]);

/**
 * Agent payments on the publisher's host (docs/SPEC.md "Agent payments"): per-crawler actions are
 * keyed by the crawler family names of server/domain/crawlers/crawlers.json.
 */
export const agentPaymentsSchema = z.strictObject({
  enabled: z.boolean(),
  /** Per page before the 4.7% platform fee; null: the full-display price. */
  crawlerPriceUsdCents: cents.nullable(),
  defaultAction: crawlerAction,
  // Keys are checked by a refinement on the record: zod words a bad record key only generically.
  crawlers: z.record(z.string(), crawlerAction).superRefine((map, ctx) => {
    for (const name of Object.keys(map)) {
      if (crawlerFamily(name) === null) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `${
            name.slice(0, 64)
          } is not a crawler of the list (GET /api/publisher/crawlers)`,
        });
      }
    }
  }),
  userFetchers: z.enum(["reader", "allow", "charge", "block"]),
});

/** GET /api/publisher/crawlers. */
export const crawlersSchema = z.object({
  crawlers: z.array(z.object({
    family: z.string(),
    operator: z.string(),
    class: z.enum(["training", "search", "user"]),
    robotsTokens: z.array(z.string()),
    action: z.enum(["reader", "allow", "charge", "block"]),
    /** True when the action is the publisher's own setting for this crawler. */
    own: z.boolean(),
  })),
});

/** A publisher's settings as GET /api/publisher/settings answers them. */
export const settingsSchema = z.strictObject({
  publisherId: z.string(),
  slug: z.string(),
  name: text(120),
  /** Shown on the terms page, the catalog and the agent card. */
  description: z.string().trim().max(2000).refine((s) => !hasControlChars(s), {
    error: "must not contain control characters",
  }),
  // Stored as DNS carries it: `bücher.example` becomes `xn--bcher-kva.example`.
  customDomain: z.string().max(253).transform((s) => asciiHostname(s) ?? s)
    .refine((s) => isHostname(s) && !isIpLiteral(s), {
      error: "must be a host name such as news.example.com",
    }).nullable(),
  branding: brandingSchema,
  toggles: togglesSchema,
  rights: rightsSchema,
  pricingUsdCents: pricingSchema,
  paywallMeterLimit: z.int().min(0).max(1000),
  robotsOrigin: z.string().max(2048).refine(isOrigin, {
    error: "must be an http(s) origin such as https://news.example.com",
  }).nullable(),
  /** Reverse-proxy mode: Folio gates crawlers and forwards admitted requests here. */
  originUrl: z.string().max(2048).refine(isOrigin, {
    error: "must be an http(s) origin such as http://10.0.0.5:8080 (no path, query or user)",
  }).nullable(),
  sponsorTools: z.array(z.enum(SPONSOR_TOOL_IDS)).refine(unique, {
    error: "must not repeat a tool",
  }),
  enterpriseTerms: enterpriseTermsSchema.nullable(),
  agentPayments: agentPaymentsSchema,
});

/**
 * The custom domain's proof: `pending` until the TXT record or the HTTP token is found (only then
 * does the domain route), `verified`, or `released` when another publisher proved it first.
 */
export const domainClaimSchema = z.object({
  name: z.string(),
  status: z.enum(["pending", "verified", "released"]),
  dnsRecord: z.object({ name: z.string(), type: z.literal("TXT"), value: z.string() }).nullable(),
  httpToken: z.object({ url: z.string(), body: z.string() }).nullable(),
  checkedAt: z.string().nullable(),
  /** One sentence: what to do, what the last check found, or why the claim was released. */
  message: z.string(),
}).nullable();

/** POST /api/publisher/domain/verify. */
export const domainVerifyResponseSchema = z.object({
  customDomain: z.string().nullable(),
  domain: domainClaimSchema,
});

/** GET /api/publisher/settings: the settings, plus where the publisher's surfaces answer. */
export const settingsResponseSchema = settingsSchema.extend({
  domain: domainClaimSchema,
  urls: z.object({
    host: z.string().nullable(),
    mcp: z.string(),
    mcpHost: z.string().nullable()
      .describe("The same MCP server at /mcp on the custom domain; null without one"),
    rest: z.string().nullable(),
    a2a: z.string(),
    agentCard: z.string(),
    card: z.string(),
    terms: z.string(),
  }),
});

/** PATCH /api/publisher/settings: every field optional; nested objects merge key by key. */
export const settingsPatchSchema = settingsSchema.omit({ publisherId: true, slug: true }).extend({
  branding: brandingSchema.partial(),
  toggles: togglesSchema.partial(),
  rights: rightsSchema.partial(),
  pricingUsdCents: pricingSchema.partial(),
  agentPayments: agentPaymentsSchema.partial(),
}).partial();

/** Input type of a settings patch. */
export type SettingsPatch = z.output<typeof settingsPatchSchema>;

/** POST /api/publishers/signup. */
export const signupSchema = z.strictObject({
  name: text(120),
  email: z.string().trim().max(254).refine(isEmail, { error: "is not an email address" }),
  password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
  slug: z.string().trim().refine(isSlug, {
    error: "must be 2 to 40 lower-case letters, digits or inner hyphens",
  }),
});

/** PUT /api/publisher/password (issue 28): the current password and the new one. */
export const passwordChangeSchema = z.strictObject({
  currentPassword: z.string().max(1000).meta({ examples: ["a long passphrase"] }),
  password: z.string()
    .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
    .describe(`The new password, ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`),
});

/** POST /api/publishers/login; only types are checked, so a bad email gets the same 401. */
export const loginSchema = z.strictObject({
  email: z.string().max(254),
  password: z.string().max(1000),
});

const isoInstant = z.iso.datetime({ offset: true });

/** An ISO 3166-1 alpha-2 country code, any case. */
const countryCode = z.string().regex(/^[A-Za-z]{2}$/, {
  error: "must be a two-letter country code",
})
  .refine(isCountryCode, { error: "is not an ISO 3166-1 alpha-2 country code" });

/** `match` of a content rule: fields combine with AND; an empty match matches every read. */
export const ruleMatchSchema = z.strictObject({
  path: z.string().max(500).regex(/^\/[^\s?#]*$/, {
    error: 'must start with "/" and contain no spaces, "?" or "#"',
  }).optional(),
  publishedWithinHours: z.number().gt(0).max(87_600).optional(),
  territories: z.array(countryCode).min(1).max(250).optional(),
});

/** `action` of a content rule. */
export const ruleActionSchema = z.strictObject({
  policy: z.enum(POLICIES).optional(),
  priceUsdCents: cents.optional(),
  window: z.strictObject({ start: isoInstant, end: isoInstant }).optional(),
  deny: z.boolean().optional(),
});

/** A rule's name: what the dashboard, explain and the public terms page call it. */
const ruleName = text(80).nullable().optional();

/** A content rule as POSTed, and as a PATCH leaves it once merged (docs/DESIGN.md §6). */
export const ruleInputSchema = z.strictObject({
  name: ruleName,
  priority: z.int().min(0).max(1_000_000),
  match: ruleMatchSchema.default({}),
  action: ruleActionSchema,
}).superRefine((rule, ctx) => {
  const { action, match } = rule;
  const issue = (path: string[], message: string) =>
    ctx.addIssue({ code: "custom", path, message, input: rule });
  if (action.deny) {
    if (!match.territories) issue(["action", "deny"], "a denial needs match.territories");
    if (action.policy !== undefined || action.priceUsdCents !== undefined || action.window) {
      issue(["action", "deny"], "cannot be combined with policy, priceUsdCents or window");
    }
  } else if (action.policy === undefined && action.priceUsdCents === undefined) {
    issue(["action"], "must set policy, priceUsdCents or deny: true");
  }
  if (action.window) {
    if (action.priceUsdCents === undefined) {
      issue(["action", "window"], "bounds a price: set action.priceUsdCents too");
    }
    if (Date.parse(action.window.start) >= Date.parse(action.window.end)) {
      issue(["action", "window", "end"], "must be after action.window.start");
    }
  }
});

/** Input type of a content rule. */
export type RuleInput = z.output<typeof ruleInputSchema>;

/** PATCH /api/publisher/rules/:id: each part given replaces that part of the rule. */
export const rulePatchSchema = z.strictObject({
  name: ruleName,
  priority: z.int().min(0).max(1_000_000),
  match: ruleMatchSchema,
  action: ruleActionSchema,
}).partial();

/** A stored content rule as the API shows it. */
export const ruleSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  priority: z.int(),
  match: ruleMatchSchema,
  action: ruleActionSchema,
});

/** PATCH /api/publisher/articles/:id. */
export const articlePatchSchema = z.strictObject({
  policy: z.enum(POLICIES).optional(),
  priceUsdCents: cents.nullable().optional(),
}).refine((p) => p.policy !== undefined || p.priceUsdCents !== undefined, {
  error: "must set policy or priceUsdCents",
});

/** POST /api/publisher/playground/passages: the retrieve_passages tool's own arguments. */
export const playgroundPassagesSchema = z.strictObject({ query, limit });

/** POST /api/publisher/license-requests/:id/approve (an empty body approves with the defaults). */
export const licenseApprovalSchema = z.strictObject({
  /** The license's monthly price in whole US cents; default: enterprise terms' price, or free. */
  monthlyPriceUsdCents: z.int().min(0).max(100_000_000).optional(),
  /** Calendar months the license runs, the acceptance's month included; default: until canceled. */
  termMonths: z.int().min(1).max(120).optional(),
  /** Days the buyer has to accept the offer; default 14. */
  expiresInDays: z.int().min(1).max(90).optional(),
  /** Words to the buyer, shown with the offer. */
  note: text(1000).optional(),
});

/** POST /api/publisher/license-requests/:id/deny (an empty body denies without a reason). */
export const licenseDenialSchema = z.strictObject({ reason: text(1000).optional() });

/** POST /api/publisher/rules/order: every one of the publisher's rule ids, in the new order. */
export const ruleOrderSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(100)).max(1000).refine(unique, {
    error: "must not repeat a rule",
  }),
});

/** GET /api/publisher/rules/explain query parameters. */
export const explainQuerySchema = z.strictObject({
  url: z.string().max(2048).refine(isUrlOrPath, {
    error: 'must be an http(s) URL or a path starting with "/"',
  }),
  country: countryCode.transform((c) => c.toUpperCase()).optional(),
  at: isoInstant.optional(),
});

/** GET /api/publisher/articles query parameters. */
export const articleQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  /** The effective policy (after content rules, for a reader from `country`). */
  policy: z.enum(POLICIES).optional(),
  /** The policy stored on the article. */
  storedPolicy: z.enum(POLICIES).optional(),
  kind: z.enum(["article", "chapter"]).optional(),
  /** true: what agents see; false: what the publisher unpublished. */
  published: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  country: countryCode.transform((c) => c.toUpperCase()).optional(),
  /** Words that must all appear in the title or URL. */
  q: z.string().trim().max(200).optional(),
});

/** Who or what decided an article's effective policy and price. */
export const decidedBySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("rule"), ruleId: z.string(), ruleName: z.string().nullable() }),
  z.object({ kind: z.literal("article") }),
  z.object({ kind: z.literal("default") }),
]);

/** The policy and display price a read gets now, after content rules. */
export const effectiveSchema = z.object({
  policy: z.enum(POLICIES),
  priceUsdCents: z.number(),
  decidedBy: decidedBySchema,
});

/** An article as the management API lists it (no body). */
export const managedArticleSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  author: z.string(),
  publishedAt: z.string().nullable(),
  tags: z.array(z.string()),
  policy: z.enum(POLICIES),
  priceUsdCents: z.number().nullable(),
  kind: z.enum(["article", "chapter"]),
  bookId: z.string().nullable(),
  chapterNo: z.int().nullable(),
  updatedAt: z.string(),
  published: z.boolean(),
  unpublishedAt: z.string().nullable(),
  effective: effectiveSchema,
});

function isHttpsUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === "https:" && !url.username && !url.password;
  } catch {
    return false;
  }
}

function isUrlOrPath(s: string): boolean {
  if (s.startsWith("/")) return !/[\s?#]/.test(s);
  try {
    const url = new URL(s);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function isOrigin(s: string): boolean {
  try {
    const url = new URL(s);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username &&
      !url.password && url.pathname === "/" && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function isIpLiteral(s: string): boolean {
  return /^\d+(\.\d+){3}$/.test(s);
}
