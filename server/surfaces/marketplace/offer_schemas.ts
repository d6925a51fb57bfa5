/**
 * The marketplace's offer and license-request schemas (issue 29 items 2 and 3): the buyer's
 * requests, the offers publishers make on them, accepting and declining, and a license's
 * cancellation preview. GET /api/openapi.json documents them (server/surfaces/openapi/marketplace.ts).
 */
import { z } from "zod";
import { USE_CASES } from "../../../store/vocabulary.ts";
import { licenseSchema } from "./schemas.ts";

const text = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** An offer as its buyer sees it (server/domain/billing/offer_view.ts). */
export const offerSchema = z.object({
  offerId: z.string(),
  requestId: z.string(),
  publisherId: z.string(),
  publisherName: z.string(),
  kind: z.enum(["request", "enterprise"]),
  useCases: z.array(z.enum(USE_CASES)),
  monthlyPriceUsdCents: z.number().describe("The monthly price offered, renewed on the 1st (UTC)"),
  termMonths: z.int().nullable().describe(
    "Calendar months, the acceptance's included; null: until canceled",
  ),
  note: z.string().nullable().describe("The publisher's words to the buyer"),
  state: z.enum(["open", "accepted", "declined", "expired"]).describe(
    "open until accepted, declined or past expiresAt (then expired, by the clock)",
  ),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  licenseId: z.string().nullable().describe("The license accepting created"),
  declineReason: z.string().nullable(),
  acceptNow: z.object({
    firstChargeUsdCents: z.number().describe(
      "What accepting now bills: the monthly price prorated to the second over the rest of this UTC month",
    ),
    periodEnd: z.iso.datetime().describe("The end of the period the first charge pays for"),
    quotedAt: z.iso.datetime().describe(
      "When firstChargeUsdCents was computed: send it as the accept body's quotedAt to be " +
        "billed exactly that (within an hour, in the same month), as Stripe's proration_date",
    ),
  }).nullable().describe("Set while the offer is open"),
});

/** GET /api/marketplace/offers: newest first. */
export const offerListSchema = z.object({ offers: z.array(offerSchema) });

/** POST /api/marketplace/offers/{offerId}/decline (an empty body declines without a reason). */
export const offerDeclineSchema = z.strictObject({ reason: text(1000).optional() });

/**
 * POST /api/marketplace/offers/{offerId}/accept body (optional): the `acceptNow.quotedAt` of the
 * figure the buyer saw, to bill that figure (docs/decisions/billing.md "Offers").
 */
export const offerAcceptSchema = z.strictObject({
  quotedAt: z.iso.datetime({ error: "must be the offer's acceptNow.quotedAt" }).optional(),
});

/** POST /api/marketplace/offers/{offerId}/accept answer: the offer, its license, the charge. */
export const offerAcceptedSchema = z.object({
  offer: offerSchema,
  license: licenseSchema,
  charged: z.object({
    firstChargeUsdCents: z.number().describe("Billed now, on this month's statement"),
    periodEnd: z.iso.datetime(),
    renewsAt: z.iso.datetime().nullable().describe("When the full monthly price is next billed"),
  }),
});

/** A license request as its buyer sees it. */
export const buyerRequestSchema = z.object({
  requestId: z.string(),
  publisherId: z.string(),
  publisherName: z.string(),
  useCase: z.enum(USE_CASES),
  enterprise: z.boolean(),
  message: z.string(),
  maxMonthlyUsdCents: z.number().nullable().describe("The most the buyer said it will pay a month"),
  state: z.enum(["pending", "offered", "accepted", "declined", "expired", "denied"]),
  reason: z.string().nullable().describe("The publisher's reason, for a denial"),
  summary: z.string().describe("Where the request stands, in one sentence"),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  offer: offerSchema.nullable(),
});

/** GET /api/marketplace/license-requests: newest first. */
export const buyerRequestListSchema = z.object({ requests: z.array(buyerRequestSchema) });

/** POST /api/marketplace/license-requests. */
export const buyerRequestInputSchema = z.strictObject({
  publisherId: z.string({ error: "is required" }).min(1, "is required").max(100),
  useCase: z.enum(["summarization", "display", "rag", "fine_tuning"]),
  message: text(2000).describe("Who you are and what you want to do with the content"),
  contact: text(200).optional(),
  enterprise: z.boolean().optional().describe("Ask for the publisher's enterprise license"),
  maxMonthlyUsdCents: z.int().min(0).max(100_000_000).optional().describe(
    "The most you will pay a month, in whole cents: the publisher cannot offer more",
  ),
});

/** 201 of POST /api/marketplace/license-requests (a repeat of a pending one answers it). */
export const buyerRequestCreatedSchema = z.object({
  requestId: z.string(),
  state: z.literal("pending"),
});

/** What canceling a license does, stated before (GET .../cancel) and after (POST .../cancel). */
export const cancelEffectSchema = licenseSchema.extend({
  effect: z.object({
    mode: z.enum(["period_end", "immediately"]).describe(
      "period_end: the license keeps its uses to the end of the period already paid (Stripe's " +
        "cancel_at_period_end) and is not renewed; immediately: a pending checkout ends now",
    ),
    accessUntil: z.iso.datetime().describe("When the license stops granting its uses"),
    creditUsdCents: z.number().describe(
      "Credited for canceling: 0, the paid period is used in full",
    ),
    chargedUsdCents: z.number().describe("Charged for canceling: 0"),
    forgoneRenewalUsdCents: z.number().describe(
      "The monthly price that would have been billed at the next renewal, and now is not",
    ),
    summary: z.string().describe("What happens, in one sentence"),
  }),
});
