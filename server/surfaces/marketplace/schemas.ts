/**
 * The buyer marketplace API's request and response schemas (docs/SPEC.md "Buyer marketplace
 * API"). Routes parse their bodies with the request schemas (`parseInput`), and GET
 * /api/openapi.json is generated from all of them (server/surfaces/openapi/marketplace.ts), so the
 * reference and the validation cannot disagree. Each field's message is the one the API has always
 * answered (tests/platform_wire_test.ts pins them).
 *
 * The schemas marked "issue 12" are the buyer portal's routes (cancel, budgets, sessions,
 * passwords, account).
 */
import { z } from "zod";
import { USE_CASES, type UseCase } from "../../../store/vocabulary.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../domain/accounts/passwords.ts";
import { METERED_CAP_MICROS, microsToCents, type RateCardUseCase } from "../../platform/money.ts";
import { hasControlChars, isEmail } from "../../platform/validate.ts";

/** Where the marketplace is mounted (server/app.ts), and where the OpenAPI document puts it. */
export const MARKETPLACE = "/api/marketplace";

/** The use cases of the standard bundle (docs/SPEC.md "License"); fine_tuning never is one. */
export const BUNDLE: readonly RateCardUseCase[] = ["summarization", "display", "rag"];

/** The metered cap (docs/SPEC.md "Limits": 1,000 USD per publisher per month), in cents. */
const CAP_CENTS = microsToCents(METERED_CAP_MICROS);

const NAME = "must be 1 to 120 characters without control characters";
const REQUIRED_STRING = "is required and must be a string";
const CLIENT_ID = "is required (the client_id from dynamic client registration)";
const USE_CASES_SHAPE = `must be a non-empty array of ${BUNDLE.join(", ")}`;
const FINE_TUNING = "fine_tuning is not in the standard bundle; ask the publisher with " +
  "POST /api/marketplace/license-requests or the request_license MCP tool: it answers with an " +
  "offer you accept";

const email = z.string({ error: REQUIRED_STRING }).trim()
  .refine(isEmail, "is not an email address")
  .meta({ format: "email", maxLength: 254 });

const password = z.string({ error: "must be a string" })
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

/** A buyer's name and email: the signup fields the admin CLI's create-buyer shares. */
export const buyerSchema = z.object({
  name: z.string({ error: REQUIRED_STRING }).trim()
    .min(1, NAME).max(120, NAME)
    .refine((s) => !hasControlChars(s), NAME)
    .describe("The company or team the account is for")
    .meta({ examples: ["Acme AI"] }),
  email: email.describe("Where statements and the processor's receipts go; one account per email")
    .meta({ examples: ["dev@acme.test"] }),
});

/** POST /api/marketplace/signup. */
export const signupSchema = buyerSchema.extend({
  password: password.optional().describe(
    `Lets the buyer sign in to the portal with email and password ` +
      `(${PASSWORD_MIN} to ${PASSWORD_MAX} characters); the API key works without it`,
  ),
});

/** 201 of POST /api/marketplace/signup: the key is shown this once. */
export const signupResponseSchema = z.object({
  buyerId: z.string(),
  apiKey: z.string().regex(/^mk_[0-9A-Za-z]{38}$/).describe("Shown once; only its hash is kept"),
  clientId: z.string().describe("The virtual MCP install `buyer:<buyerId>` the key reads as"),
  note: z.string(),
});

/** POST /api/marketplace/rotate-key. */
export const rotateKeyResponseSchema = z.object({
  apiKey: z.string().regex(/^mk_[0-9A-Za-z]{38}$/).describe("Shown once; the old key is revoked"),
});

/** POST /api/marketplace/clients. */
export const clientInputSchema = z.object({
  clientId: z.string({ error: CLIENT_ID }).min(1, CLIENT_ID).max(200, CLIENT_ID)
    .describe("The client_id from dynamic client registration (POST /api/oauth/register)")
    .meta({ examples: ["oc_0123456789ABCDEF"] }),
});

/** The answer of POST /api/marketplace/clients. */
export const clientResponseSchema = z.object({ clientId: z.string(), buyerId: z.string() });

/** GET /api/marketplace/clients. */
export const clientListSchema = z.object({
  clients: z.array(z.object({
    clientId: z.string(),
    kind: z.enum(["buyer", "dynamic"]).describe(
      "buyer: the key's own virtual install; dynamic: an OAuth client claimed with POST /clients",
    ),
    name: z.string().nullable(),
    email: z.string().nullable().describe("The email given at the consent screen, if any"),
    createdAt: z.iso.datetime(),
  })),
});

const rightFlag = z.enum(["granted", "denied"]);
// Typed by use, so the portal's pages infer each right (Object.fromEntries forgets the keys).
const rights = z.object(
  Object.fromEntries(USE_CASES.map((u) => [u, rightFlag])) as Record<UseCase, typeof rightFlag>,
);
const usePrices = z.object({
  summarization: z.number(),
  display: z.number(),
  rag: z.number(),
}).describe("Per-use prices in US cents (may be fractional: 0.5 is half a cent)");

/** GET /api/marketplace/catalog. */
export const catalogSchema = z.object({
  publishers: z.array(z.object({
    publisherId: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    articleCount: z.int().describe("Articles and book chapters"),
    chapterCount: z.int(),
    rights,
    pricingUsdCents: usePrices,
    paywallMeterLimit: z.int().describe(
      "Free reads of priced articles a month for callers without a buyer key",
    ),
    mcpEndpoint: z.string(),
    restApi: z.string().nullable().describe("The REST base, or null where it is not offered"),
    a2aEndpoint: z.string().nullable(),
    a2aCardUrl: z.string().nullable().describe("The A2A agent card; null when A2A is off"),
    termsUrl: z.string(),
    requiresAuth: z.boolean().describe("MCP needs a credential (OAuth or a buyer key)"),
    enterpriseLicense: z.object({
      useCases: z.array(z.enum(USE_CASES)),
      monthlyPriceUsdCents: z.number(),
      conditions: z.string(),
    }).nullable().describe("Terms offered through request_license with enterprise: true"),
  })),
  rateCard: z.object({
    currency: z.literal("usd"),
    period: z.literal("month"),
    baseUsdCents: z.number(),
    useCasesUsdCents: usePrices,
    fineTuning: z.string(),
  }).describe('The standard monthly license prices (docs/SPEC.md "Rate card")'),
});

/** POST /api/marketplace/licenses. */
export const licenseInputSchema = z.object({
  publisherId: z.string({ error: "is required" }).min(1, "is required")
    .describe("The publisher to license (publisherId in GET /catalog)")
    .meta({ examples: ["pub_demo"] }),
  useCases: z.array(
    z.enum(BUNDLE as [RateCardUseCase, ...RateCardUseCase[]], {
      error: (issue) =>
        issue.input === "fine_tuning"
          ? FINE_TUNING
          : `unknown use case ${JSON.stringify(issue.input)}`,
    }),
    { error: USE_CASES_SHAPE },
  ).min(1, USE_CASES_SHAPE).max(10, USE_CASES_SHAPE)
    .describe("The uses to license, priced from the rate card (base fee plus each use)")
    .meta({ examples: [["display", "rag"]] }),
  quotedAt: z.iso.datetime({ error: "must be the moment the first charge was quoted" })
    .optional().describe(
      "When the first charge the buyer saw was computed (the buyer portal sends its page's): " +
        "it is then billed as quoted, within an hour and in the same month (Stripe's " +
        "proration_date); without it, prorated from now",
    ),
});

/** 201 of POST /api/marketplace/licenses without a payment processor: active at once. */
export const licenseActiveSchema = z.object({
  licenseId: z.string(),
  state: z.literal("active"),
  publisherId: z.string(),
  useCases: z.array(z.enum(BUNDLE as [RateCardUseCase, ...RateCardUseCase[]])),
  monthlyFeeUsdCents: z.int(),
  firstChargeUsdCents: z.number().describe(
    "Billed now: the monthly fee prorated to the second over the rest of this UTC month",
  ),
  renewsAt: z.iso.datetime().describe("When the full monthly fee is next billed (the 1st, UTC)"),
  billing: z.string(),
});

/** 200 of POST /api/marketplace/licenses with a payment processor: pay at checkoutUrl. */
export const licensePendingSchema = z.object({
  checkoutUrl: z.string(),
  licenseId: z.string(),
  state: z.literal("pending"),
  monthlyFeeUsdCents: z.int(),
});

/** Either answer of POST /api/marketplace/licenses: active now (201) or pending checkout (200). */
export const licenseBoughtSchema = z.union([licensePendingSchema, licenseActiveSchema]);

/** One of the buyer's licenses. */
export const licenseSchema = z.object({
  licenseId: z.string(),
  publisherId: z.string(),
  kind: z.enum(["subscription", "enterprise", "request"]).describe(
    "subscription: bought here; request, enterprise: approved from a request_license",
  ),
  useCases: z.array(z.enum(USE_CASES)),
  state: z.enum(["pending", "active", "canceled", "expired"]),
  monthlyFeeUsdCents: z.int(),
  checkoutUrl: z.string().nullable().describe("Where to pay, while pending"),
  createdAt: z.iso.datetime(),
  activatedAt: z.iso.datetime().nullable(),
  canceledAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable().describe(
    "When the license stops granting: the end of an approved term or of the month it was canceled in",
  ),
  cancelsAt: z.iso.datetime().nullable().describe(
    "Set once the buyer canceled, or the publisher withdrew a use this subscription covers: " +
      "the license stays active until then and is not renewed",
  ),
  renewsAt: z.iso.datetime().nullable().describe(
    "When the monthly fee is next billed (the 1st, UTC); null when it will not be: canceled, " +
      "free, ended, pending, or its term ends first",
  ),
});

/** GET /api/marketplace/licenses. */
export const licenseListSchema = z.object({ licenses: z.array(licenseSchema) });

/** GET /api/marketplace/usage. */
export const usageSchema = z.object({
  days: z.int(),
  since: z.iso.datetime(),
  usage: z.array(z.object({
    publisherId: z.string(),
    publisherName: z.string(),
    calls: z.int().describe("Logged calls by any identity billed to the buyer"),
    reads: z.int().describe("Article reads among them"),
    paywalls: z.int().describe("Paid reads of priced content"),
  })),
  metered: z.array(z.object({
    publisherId: z.string(),
    publisherName: z.string(),
    chargedReads: z.int(),
    spendUsdCents: z.number(),
  })),
  meteredTotalCents: z.int(),
  daily: z.array(z.object({
    day: z.string().describe("YYYY-MM-DD (UTC)"),
    calls: z.int(),
    reads: z.int(),
    spendUsdCents: z.number(),
  })).describe("Every UTC day the window touches, oldest first, zeros included"),
});

/** GET /api/marketplace/statements. */
export const statementMonthsSchema = z.object({
  months: z.array(z.object({
    month: z.string().describe("YYYY-MM (UTC)"),
    state: z.enum(["open", "closed"]),
    totalUsdCents: z.int(),
  })).describe("The current month, then earlier months with ledger rows, newest first"),
});

/** GET /api/marketplace/statement. */
export const statementSchema = z.object({
  buyerId: z.string(),
  month: z.string().describe("YYYY-MM (UTC)"),
  state: z.enum(["open", "closed"]).describe(
    "open: the month's ledger so far; closed: frozen at the month close, never changes again",
  ),
  closedAt: z.iso.datetime().nullable(),
  currency: z.literal("usd"),
  lines: z.array(z.object({
    kind: z.enum(["subscription", "metered", "landing", "adjustment"]),
    publisherId: z.string(),
    publisherName: z.string(),
    description: z.string(),
    quantity: z.int(),
    usageMonth: z.string().describe("The month the usage happened in (earlier for adjustments)"),
    prepaid: z.boolean().describe("Collected by card at checkout; not due again"),
    amountUsdCents: z.int().describe(
      "As printed: priceUsdCents + feeUsdCents; the lines add up to totalUsdCents (the total " +
        "rounded once, each line rounded up or down so they do)",
    ),
    priceUsdCents: z.int().describe("The publisher's own prices, as printed"),
    feeUsdCents: z.int().describe(
      "The 4.7% platform fee on agent payments, else 0, as printed (the lines add up to " +
        "platformFeesUsdCents)",
    ),
    priceUsdMicros: z.int(),
    feeUsdMicros: z.int(),
    amountUsdMicros: z.int().describe("Exact: the sum of the line's items' amountUsdMicros"),
    itemsUrl: z.string().describe("The line's items (GET, same credentials): its drill-down"),
  })),
  subscriptionFeesUsdCents: z.int(),
  meteredUsdCents: z.int(),
  landingUsdCents: z.int(),
  adjustmentsUsdCents: z.int(),
  platformFeesUsdCents: z.int(),
  totalUsdCents: z.int().describe("totalUsdMicros rounded once, half-up, to the cent"),
  prepaidUsdCents: z.int(),
  amountDueUsdCents: z.int().describe("The total less what the processor already collected"),
  settlement: z.literal("invoice"),
  totalUsdMicros: z.int().describe("Exact: the sum of every item on the statement"),
  settlementNote: z.string().describe("How it is paid; automatic card collection is to come"),
});

/** POST /api/marketplace/webhooks/stripe answer. */
export const webhookResponseSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe("A redelivery: recorded before, no second effect"),
  effect: z.enum(["activated", "canceled", "paid", "credited", "none"]).describe(
    "paid: an invoice's card payment recorded; credited: it met an invoice no longer open",
  ),
});

// Budgets.

const budgetFigures = {
  monthlyUsdCents: z.int().nullable().describe("The budget set; null: none"),
  spentUsdCents: z.number().describe(
    "What the budget counts this month: per-read spend and license fees (subscriptions, accepted offers)",
  ),
  readSpendUsdCents: z.number().describe("Per-read spend this month (what the cap counts)"),
};

/** GET and PUT /api/marketplace/budgets. */
export const budgetsSchema = z.object({
  month: z.string().describe("YYYY-MM (UTC)"),
  capUsdCents: z.int().describe(`The metered cap per publisher per month (${CAP_CENTS})`),
  overall: z.object({
    ...budgetFigures,
    remainingUsdCents: z.number().nullable(),
  }),
  publishers: z.array(z.object({
    publisherId: z.string(),
    publisherName: z.string(),
    ...budgetFigures,
    capUsdCents: z.int(),
    remainingUsdCents: z.number().describe("Before the budget or the cap, whichever is lower"),
  })),
});

/** Highest budget accepted, in cents: 1,000,000 USD a month. */
export const MAX_BUDGET_CENTS = 100_000_000;

/** PUT /api/marketplace/budgets. */
export const budgetInputSchema = z.strictObject({
  publisherId: z.string().min(1).max(100).optional()
    .describe("The publisher this budget is for; leave it out for the overall budget")
    .meta({ examples: ["pub_demo"] }),
  monthlyUsdCents: z.int().min(0).max(MAX_BUDGET_CENTS).nullable()
    .describe(
      "The most billed in a UTC month (per-read spend and license fees), in US cents; null removes it",
    )
    .meta({ examples: [5000] }),
});

// Issue 12: portal sessions, passwords and the account.

/** Issue 12: POST /api/marketplace/session: the email and password, or the API key. */
export const sessionInputSchema = z.union([
  z.strictObject({
    email: z.string().max(254).meta({ examples: ["dev@acme.test"] }),
    password: z.string().max(1000).meta({ examples: ["correct horse battery"] }),
  }),
  z.strictObject({ apiKey: z.string().max(200).describe("The buyer key, mk_...") }),
], { error: "must be {email, password} or {apiKey}" });

const sessionFields = {
  buyerId: z.string(),
  name: z.string(),
  csrfToken: z.string().describe("Send as X-CSRF-Token on every cookie-authenticated change"),
  expiresAt: z.iso.datetime(),
};

/** Issue 12: 201 of POST /api/marketplace/session (the session travels in its cookie). */
export const sessionCreatedSchema = z.object(sessionFields);

/** Issue 12: GET /api/marketplace/session; with a key, not a session, the last two are null. */
export const sessionSchema = z.object({
  ...sessionFields,
  email: z.string(),
  csrfToken: sessionFields.csrfToken.nullable(),
  expiresAt: sessionFields.expiresAt.nullable(),
});

/** Issue 12: PUT /api/marketplace/password. */
export const passwordInputSchema = z.strictObject({
  password,
  currentPassword: z.string().max(1000).optional().describe(
    "Required when the account already has a password",
  ),
});

/** Issue 12: GET /api/marketplace/account. */
export const accountSchema = z.object({
  buyerId: z.string(),
  name: z.string(),
  email: z.string(),
  createdAt: z.iso.datetime(),
  hasPassword: z.boolean(),
  keyHint: z.string().nullable().describe(
    "The end of the live key, to tell keys apart; null when no live key has one",
  ),
});

// Issue 13: Web Bot Auth key directories a buyer pays for.

/** POST /api/marketplace/signature-agents. */
export const signatureAgentInputSchema = z.strictObject({
  agent: z.string().max(2048).refine(isAgentOrigin, {
    error: "must be the https origin of a key directory, such as https://bot.example",
  }).transform((s) => new URL(s).origin)
    .describe("The origin whose /.well-known/http-message-signatures-directory lists the keys")
    .meta({ examples: ["https://crawler.example"] }),
});

/** The buyer's registered key directories. */
export const signatureAgentsSchema = z.object({
  agents: z.array(z.object({
    agent: z.string().describe("Origin of the key directory"),
    createdAt: z.string().describe("ISO 8601"),
  })),
});

/** An https origin; http only for loopback hosts (local crawlers and tests). */
function isAgentOrigin(s: string): boolean {
  try {
    const u = new URL(s);
    if (u.pathname !== "/" || u.search || u.hash || u.username || u.password) return false;
    return u.protocol === "https:" ||
      (u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname));
  } catch {
    return false;
  }
}
