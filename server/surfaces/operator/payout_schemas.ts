/** The wire of the operator's payouts and desk (issue 38 parts 5 and 6). */
import { z } from "zod";
import { holdSchema } from "../../domain/billing/payout_schemas.ts";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const month = z.string().regex(MONTH, "must be a month written YYYY-MM");
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** GET /api/operator/payouts query. */
export const payoutQuerySchema = z.strictObject({
  month: month.optional(),
  state: z.enum(["held", "due", "approved", "paid"]).optional(),
  publisherId: z.string().max(100).optional(),
  batchId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** One payout as the operator sees it. */
export const operatorPayoutSchema = z.object({
  id: z.string(),
  publisherId: z.string(),
  publisherName: z.string(),
  month: z.string(),
  earnedUsdMicros: z.int().describe("The publisher's prices on that month's statements"),
  state: z.enum(["held", "due", "approved", "paid"]),
  amountUsdMicros: z.int().describe(
    "Due now (collected basis, whole cents) or what its batch pays",
  ),
  holds: z.array(holdSchema),
  reviewHold: z.string().nullable().describe("The operator's review hold reason, if any"),
  batchId: z.string().nullable(),
  paidAt: z.string().nullable(),
  reference: z.string().nullable(),
  payee: z.string().nullable().describe("Where it goes, masked (null: no payee details)"),
});

/** GET /api/operator/payouts. */
export const payoutListSchema = z.object({
  payouts: z.array(operatorPayoutSchema),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
});

/** POST /api/operator/payouts/<id>/hold. */
export const reviewHoldSchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).describe(
    "Why it is under review (the publisher sees it)",
  ),
});

/** POST /api/operator/payouts/<id>/release. */
export const releaseSchema = z.strictObject({
  reason: z.string().trim().max(500).optional(),
});

/** POST /api/operator/payout-batches. */
export const batchInputSchema = z.strictObject({
  month: month.describe("Pay the payouts due up to this closed month"),
  payoutIds: z.array(z.string().min(1).max(100)).min(1).max(1000).optional().describe(
    "Only these (each must be due and not held); default: every payout due and not held",
  ),
});

/** A batch. */
export const batchSchema = z.object({
  id: z.string(),
  month: z.string(),
  payoutCount: z.int(),
  totalUsdMicros: z.int(),
  approvedBy: z.string(),
  createdAt: z.string(),
  exportedAt: z.string().nullable(),
  paidCount: z.int(),
  fileUrl: z.string().describe("The payout file (CSV) for the bank or provider"),
});

/** GET /api/operator/payout-batches/<id> and POST /api/operator/payout-batches. */
export const batchAnswerSchema = z.object({
  batch: batchSchema,
  payouts: z.array(operatorPayoutSchema),
});

/** GET /api/operator/payout-batches. */
export const batchListSchema = z.object({ batches: z.array(batchSchema) });

/** POST …/paid: the transfer went out. */
export const paidInputSchema = z.strictObject({
  paidOn: z.string().regex(DAY, "must be a date written YYYY-MM-DD").refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)),
    "must be a real date",
  ).describe("The day the transfer was made (UTC)"),
  reference: z.string().trim().min(1).max(140).describe("The bank's or provider's reference"),
});

/** POST …/paid answer. */
export const paidAnswerSchema = z.object({ payouts: z.array(operatorPayoutSchema) });

/** GET /api/operator/desk query. */
export const deskQuerySchema = z.strictObject({
  month: month.optional().describe("Default: the last closed month"),
  months: z.coerce.number().int().min(1).max(36).default(12).describe("Months in the charts/CSV"),
});

const figure = (what: string) => z.int().describe(what);

/** One month on the desk. */
export const deskMonthSchema = z.object({
  month: z.string(),
  state: z.enum(["open", "closed"]),
  billedUsdMicros: figure("Billed on the month's statements: publishers' prices + platform fees"),
  publishersPricesUsdMicros: figure("The publishers' part of what was billed"),
  platformFeesUsdMicros: figure("The platform's 4.7% on the landing path (its only revenue)"),
  collectedUsdMicros: figure("Cash received: by card at checkout, on invoices, and untracked"),
  collectedByCardUsdMicros: figure("Paid by card at checkout"),
  collectedOnInvoicesUsdMicros: figure("Payments recorded on the month's invoices"),
  collectedUntrackedUsdMicros: figure(
    "Statements closed before invoices recorded payments: counted collected",
  ),
  creditAppliedUsdMicros: figure("Credit balance used by the month's invoices"),
  outstandingUsdMicros: figure("Still owed on open and partly paid invoices"),
  overdueUsdMicros: figure("The part of outstanding past its due date"),
  voidUsdMicros: figure("Voided invoices' amounts"),
  uncollectibleUsdMicros: figure("Written off as uncollectible"),
  creditedUsdMicros: figure("Credit notes landing on the month"),
  invoices: z.int(),
  creditNotes: z.int(),
  payouts: z.int(),
  payoutsEarnedUsdMicros: figure("The publishers' prices: what payouts accrue"),
  payoutsDueNowUsdMicros: figure("Due now and free of holds (collected basis)"),
  payoutsHeld: z.int(),
  payoutsApprovedUsdMicros: figure("In approved batches (paid or not yet)"),
  payoutsPaidUsdMicros: figure("Marked paid"),
});

/** GET /api/operator/desk. */
export const deskSchema = z.object({
  month: deskMonthSchema,
  history: z.array(deskMonthSchema).describe("The months up to it, oldest first"),
  links: z.object({
    invoices: z.string(),
    disputes: z.string(),
    suspensions: z.string(),
    payouts: z.string(),
  }),
});
