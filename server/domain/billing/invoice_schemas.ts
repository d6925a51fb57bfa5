/** Schemas of invoices (issue 38): what the marketplace and the operator API answer about them. */
import { z } from "zod";

const usdMicros = z.number().int().describe("Micro-dollars (1 USD = 1,000,000)");

/** One payment recorded against an invoice. */
export const paymentSchema = z.object({
  id: z.string(),
  paidOn: z.string().describe("The day the money arrived, YYYY-MM-DD"),
  method: z.string().describe("bank_transfer, card, stripe, check, cash or other"),
  reference: z.string(),
  amountUsdMicros: usdMicros,
  amountUsdCents: z.number().int(),
  creditedUsdMicros: usdMicros.describe("The part that went to the credit balance (overpaid)"),
  recordedAt: z.iso.datetime(),
});

/** One issued invoice. */
export const invoiceSchema = z.object({
  number: z.string().describe("FOLIO-000042"),
  buyerId: z.string(),
  month: z.string().describe("The statement's month, YYYY-MM (UTC)"),
  state: z.enum(["open", "partially_paid", "paid", "void", "uncollectible"]),
  overdue: z.boolean().describe("Unpaid past its due date"),
  issuedAt: z.iso.datetime(),
  dueAt: z.iso.datetime(),
  url: z.string().describe("The invoice's page in the buyer portal"),
  paymentUrl: z.string().nullable().describe(
    "The Stripe Checkout link, once asked for (POST .../checkout); null without Stripe",
  ),
  totalUsdMicros: usdMicros.describe("The statement's total"),
  prepaidUsdMicros: usdMicros.describe("Already paid by card at checkout"),
  creditAppliedUsdMicros: usdMicros.describe("Taken from the credit balance at issue"),
  amountDueUsdMicros: usdMicros.describe("Total less prepaid, to the cent, less credit applied"),
  paidUsdMicros: usdMicros,
  amountRemainingUsdMicros: usdMicros,
  amountDueUsdCents: z.number().int(),
  amountRemainingUsdCents: z.number().int(),
  closedReason: z.string().nullable().describe("Why it was voided or marked uncollectible"),
  payments: z.array(paymentSchema),
});

/** GET /invoices: the buyer's receivables. */
export const receivablesSchema = z.object({
  balanceDueUsdMicros: usdMicros.describe("What is left to pay on open and partly paid invoices"),
  balanceDueUsdCents: z.number().int(),
  overdueUsdMicros: usdMicros.describe("The part of it past due"),
  creditBalanceUsdMicros: usdMicros.describe("Credit the next invoice will use"),
  suspension: z.object({
    reason: z.enum(["payment_overdue", "manual"]),
    invoiceNumber: z.string().nullable(),
    url: z.string(),
    note: z.string(),
    since: z.iso.datetime(),
  }).nullable().describe("Priced reads are refused (payment_overdue) while this is set"),
  invoices: z.array(invoiceSchema),
});

/** POST /invoices/{number}/checkout. */
export const invoiceCheckoutSchema = z.object({
  url: z.string().describe("Stripe Checkout (payment mode) for what is left to pay"),
  sessionId: z.string(),
});
