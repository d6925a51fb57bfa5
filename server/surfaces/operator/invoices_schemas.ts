/** Schemas of the operator's invoices and suspensions (issue 38 parts 2 and 3). */
import { z } from "zod";
import { PAYMENT_METHODS } from "../../domain/billing/receivables.ts";
import { invoiceSchema } from "../../domain/billing/invoice_schemas.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD").refine(
  (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(s).toISOString().startsWith(s),
  "must be a real calendar date",
);
const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

/** GET /api/operator/invoices query. */
export const invoiceQuerySchema = z.strictObject({
  state: z.enum(["open", "partially_paid", "paid", "void", "uncollectible", "overdue"]).optional()
    .describe("overdue: open or partly paid past the due date"),
  buyerId: z.string().trim().min(1).max(100).optional(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month written YYYY-MM").optional(),
  ...page,
});

/** An invoice in the operator's list: the buyer's invoice with the buyer's name. */
export const operatorInvoiceSchema = invoiceSchema.extend({ buyerName: z.string() });

/** GET /api/operator/invoices. */
export const invoicePageSchema = z.object({
  invoices: z.array(operatorInvoiceSchema),
  /** The offset of the next page, or null on the last. */
  nextOffset: z.number().int().nullable(),
});

/** POST /api/operator/invoices/{number}/payments. */
export const paymentInputSchema = z.strictObject({
  amountUsdMicros: z.number().int().positive("must be more than zero")
    .multipleOf(10_000, "must be a whole number of cents (10,000 micro-dollars each)")
    .max(1_000_000_000_000, "is beyond any invoice"),
  paidOn: day.describe("The day the money arrived"),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string().trim().max(200).default(""),
  idempotencyKey: z.string().trim().regex(
    /^[\x21-\x7e]{1,255}$/,
    "must be 1 to 255 visible ASCII characters",
  )
    .describe("A retry with the same key records nothing new and answers the first payment"),
});

/** The answer of recording a payment. */
export const paymentAnswerSchema = z.object({
  invoice: operatorInvoiceSchema,
  replayed: z.boolean().describe("The key was recorded before: nothing changed this time"),
  creditedUsdMicros: z.number().int().describe("What went to the buyer's credit balance"),
});

/** POST /api/operator/invoices/{number}/void and /uncollectible. */
export const reasonSchema = z.strictObject({
  reason: z.string().trim().min(1, "say why").max(500),
});

/** GET /api/operator/suspensions query. */
export const suspensionQuerySchema = z.strictObject({
  open: z.enum(["true", "false"]).optional().describe("true: only those not lifted"),
  buyerId: z.string().trim().min(1).max(100).optional(),
  ...page,
});

/** One suspension. */
export const suspensionSchema = z.object({
  id: z.string(),
  buyerId: z.string(),
  buyerName: z.string(),
  reason: z.enum(["payment_overdue", "manual"]),
  invoiceNumber: z.string().nullable(),
  note: z.string(),
  since: z.iso.datetime(),
  startedBy: z.string(),
  liftedAt: z.iso.datetime().nullable(),
  liftedBy: z.string().nullable(),
  liftNote: z.string().nullable(),
});

/** GET /api/operator/suspensions. */
export const suspensionPageSchema = z.object({
  suspensions: z.array(suspensionSchema),
  nextOffset: z.number().int().nullable(),
});

/** POST /api/operator/suspensions (suspend by hand). */
export const suspendInputSchema = z.strictObject({
  buyerId: z.string().trim().min(1).max(100),
  reason: z.string().trim().min(1, "say why").max(500),
});

/** POST /api/operator/suspensions/{buyerId}/lift. */
export const liftInputSchema = reasonSchema;

/** What suspending or lifting answers: the buyer's suspension now (null once lifted). */
export const suspensionStateSchema = z.object({
  buyerId: z.string(),
  suspended: z.boolean(),
  reason: z.enum(["payment_overdue", "manual"]).nullable(),
  invoiceNumber: z.string().nullable(),
  note: z.string().nullable(),
});
