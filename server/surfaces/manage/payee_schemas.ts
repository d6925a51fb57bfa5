/** The wire of payee details and the publisher's payout history (issue 38 part 5). */
import { z } from "zod";
import {
  bicOf,
  ibanOf,
  isCountry,
  isCurrency,
  isRoutingNumber,
} from "../../domain/billing/payees.ts";
import { hasControlChars, isEmail } from "../../platform/validate.ts";
import { holdSchema } from "../../domain/billing/payout_schemas.ts";

const common = {
  legalName: z.string().trim().min(1).max(140).refine((s) => !hasControlChars(s), {
    message: "must not contain control characters",
  }).describe("The name the bank account or payment account is held in"),
  country: z.string().trim().transform((s) => s.toUpperCase()).refine(isCountry, {
    message: "must be an ISO 3166-1 country code such as DE or US",
  }),
  currency: z.string().trim().transform((s) => s.toUpperCase()).refine(isCurrency, {
    message: "must be an ISO 4217 currency code such as EUR or USD",
  }).describe("The currency your account is in; payouts are sent in USD and converted"),
};

/** PUT /api/publisher/payee: where your payouts go (replaces what was there). */
export const payeeInputSchema = z.discriminatedUnion("method", [
  z.strictObject({
    ...common,
    method: z.literal("iban"),
    iban: z.string().max(64).refine((s) => ibanOf(s) !== null, {
      message: "is not a valid IBAN (check the digits and the country's length)",
    }),
    bic: z.string().max(16).nullable().optional().refine((s) => !s || bicOf(s) !== null, {
      message: "is not a valid BIC (8 or 11 letters and digits)",
    }),
  }),
  z.strictObject({
    ...common,
    method: z.literal("us_account"),
    accountNumber: z.string().trim().regex(/^\d{4,17}$/, "must be 4 to 17 digits"),
    routingNumber: z.string().trim().refine(isRoutingNumber, {
      message: "is not a valid ABA routing number (9 digits, checksum)",
    }),
    accountType: z.enum(["checking", "savings"]),
  }),
  z.strictObject({
    ...common,
    method: z.literal("email"),
    provider: z.enum(["paypal", "wise", "payoneer"]),
    email: z.string().trim().refine(isEmail, { message: "must be an email address" }),
  }),
]);

/** The payee details as every answer shows them: masked to the last four. */
export const payeeViewSchema = z.object({
  legalName: z.string(),
  country: z.string(),
  currency: z.string(),
  method: z.enum(["iban", "us_account", "email"]),
  masked: z.string().describe('e.g. "IBAN •••• 3000"; numbers are never shown whole'),
  last4: z.string().describe("The account's last four characters (an email: its first letter)"),
  updatedAt: z.string(),
});

/** GET /api/publisher/payee. */
export const payeeAnswerSchema = z.object({
  payee: payeeViewSchema.nullable().describe("null: none given yet; payouts are held until then"),
  encryptedWith: z.enum(["operator_secret", "store_key"]).describe(
    "operator_secret: FOLIO_PAYEE_KEY_SECRET; store_key: a key kept in the store (development)",
  ),
});

/** One payout as the publisher sees it. */
export const publisherPayoutSchema = z.object({
  id: z.string(),
  month: z.string(),
  earnedUsdMicros: z.int().describe("Your prices on that month's statements (accrued)"),
  state: z.enum(["held", "due", "approved", "paid"]).describe(
    "held: see holds; due: in the next batch; approved: in a batch, being paid; paid",
  ),
  amountUsdMicros: z.int().describe("What it pays: due now (collected basis) or what was paid"),
  holds: z.array(holdSchema),
  paidAt: z.string().nullable(),
  reference: z.string().nullable().describe("The bank's or provider's reference of the transfer"),
});

/** GET /api/publisher/payouts/history. */
export const payoutHistorySchema = z.object({
  payouts: z.array(publisherPayoutSchema),
});
