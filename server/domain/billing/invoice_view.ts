/**
 * Invoices as buyers and the operator see them (issue 38): state, due date, what is left to pay,
 * the payments and the payment link; micro-dollars to check, cents to show.
 */
import type { Executor } from "../../../store/db.ts";
import { creditBalanceMicros } from "../../../store/credits.ts";
import {
  type InvoiceRow,
  listInvoices,
  type PaymentRow,
  paymentsOf,
} from "../../../store/receivables.ts";
import { buyerSuspension, type Suspension } from "../../../store/suspensions.ts";
import { microsToWholeCents, subtractMicros, sumMicros } from "../../platform/money.ts";
import {
  formatInvoiceNumber,
  invoiceUrl,
  isOverdue,
  type ReceivablesSettings,
  remainingMicros,
} from "./invoice_terms.ts";

/** One payment as the API sends it. */
export interface PaymentWire {
  id: string;
  paidOn: string;
  method: string;
  reference: string;
  amountUsdMicros: number;
  amountUsdCents: number;
  /** The part of it that went to the credit balance (an overpayment). */
  creditedUsdMicros: number;
  recordedAt: string;
}

/** One invoice as the API sends it. */
export interface InvoiceWire {
  number: string;
  buyerId: string;
  month: string;
  state: InvoiceRow["state"];
  /** Unpaid past its due date. */
  overdue: boolean;
  issuedAt: string;
  dueAt: string;
  url: string;
  /** The Stripe Checkout link, once the buyer asked for one (null without Stripe). */
  paymentUrl: string | null;
  totalUsdMicros: number;
  prepaidUsdMicros: number;
  creditAppliedUsdMicros: number;
  amountDueUsdMicros: number;
  paidUsdMicros: number;
  amountRemainingUsdMicros: number;
  amountDueUsdCents: number;
  amountRemainingUsdCents: number;
  /** Why it was voided or written off. */
  closedReason: string | null;
  payments: PaymentWire[];
}

/** The wire form of an invoice and its payments. */
export function invoiceWire(
  i: InvoiceRow,
  payments: PaymentRow[],
  options: { now: Date; settings: ReceivablesSettings },
): InvoiceWire {
  return {
    number: formatInvoiceNumber(i.seq),
    buyerId: i.buyerId,
    month: i.month,
    state: i.state,
    overdue: isOverdue(i, options.now),
    issuedAt: new Date(i.issuedAt).toISOString(),
    dueAt: new Date(i.dueAt).toISOString(),
    url: invoiceUrl(options.settings, i.month),
    paymentUrl: i.checkoutUrl,
    totalUsdMicros: i.totalMicros,
    prepaidUsdMicros: i.prepaidMicros,
    creditAppliedUsdMicros: i.creditMicros,
    amountDueUsdMicros: i.amountDueMicros,
    paidUsdMicros: i.paidMicros,
    amountRemainingUsdMicros: remainingMicros(i),
    amountDueUsdCents: microsToWholeCents(i.amountDueMicros),
    amountRemainingUsdCents: microsToWholeCents(remainingMicros(i)),
    closedReason: i.closedReason,
    payments: payments.filter((p) => p.invoiceSeq === i.seq).map(paymentWire),
  };
}

function paymentWire(p: PaymentRow): PaymentWire {
  return {
    id: p.id,
    paidOn: p.paidOn,
    method: p.method,
    reference: p.reference,
    amountUsdMicros: p.amountMicros,
    amountUsdCents: microsToWholeCents(p.amountMicros),
    creditedUsdMicros: subtractMicros(p.amountMicros, p.appliedMicros),
    recordedAt: new Date(p.createdAt).toISOString(),
  };
}

/** Invoices with their payments (one query for all the payments). */
export async function invoicesWire(
  db: Executor,
  rows: InvoiceRow[],
  options: { now: Date; settings: ReceivablesSettings },
): Promise<InvoiceWire[]> {
  const payments = await paymentsOf(db, rows.map((r) => r.seq));
  return rows.map((r) => invoiceWire(r, payments, options));
}

/** A buyer's receivables: balance due, overdue part, credit, suspension and every invoice. */
export interface BuyerReceivables {
  balanceDueUsdMicros: number;
  balanceDueUsdCents: number;
  overdueUsdMicros: number;
  creditBalanceUsdMicros: number;
  suspension: (Omit<Suspension, "since"> & { since: string }) | null;
  invoices: InvoiceWire[];
}

/** Everything the buyer's invoices page and `GET /invoices` show. */
export async function buyerReceivables(
  db: Executor,
  buyerId: string,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<BuyerReceivables> {
  const rows = await listInvoices(db, { buyerId }, { limit: 500, offset: 0 });
  const unpaid = rows.filter((r) => r.state === "open" || r.state === "partially_paid");
  const balance = sumMicros(unpaid.map(remainingMicros));
  const overdue = sumMicros(unpaid.filter((r) => isOverdue(r, options.now)).map(remainingMicros));
  const [credit, suspension, invoices] = await Promise.all([
    creditBalanceMicros(db, buyerId),
    buyerSuspension(db, buyerId),
    invoicesWire(db, rows, options),
  ]);
  return {
    balanceDueUsdMicros: balance,
    balanceDueUsdCents: microsToWholeCents(balance),
    overdueUsdMicros: overdue,
    creditBalanceUsdMicros: credit,
    suspension: suspension && { ...suspension, since: new Date(suspension.since).toISOString() },
    invoices,
  };
}
