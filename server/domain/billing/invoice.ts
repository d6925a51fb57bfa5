/**
 * A buyer's statement as an invoice (issue 34; docs/decisions/billing.md "Invoices"): a closed
 * month is issued with a number from one global sequence (FOLIO-000001, …) on the day it closed,
 * due NET_DAYS later; the open month is a draft without number or dates. The seller is the Folio
 * operator (Config.seller); lines, subtotal, fees and total add up to the cent as printed.
 * Its due date, state and payments are the receivable's (receivables.ts, issue 38).
 */
import type { Client } from "../../../store/db.ts";
import { invoiceNumber } from "../../../store/invoices.ts";
import type { Seller } from "../../platform/config.ts";
import { getInvoice, type InvoiceRow, paymentsOf } from "../../../store/receivables.ts";
import { addCents, microsToWholeCents, sumMicros } from "../../platform/money.ts";
import { type InvoiceWire, invoiceWire } from "./invoice_view.ts";
import { formatInvoiceNumber, type ReceivablesSettings } from "./invoice_terms.ts";
import { issueInvoice } from "./receivables.ts";
import type { Statement } from "./statement.ts";

/** Everything the invoice page shows. */
export interface Invoice {
  /** "FOLIO-000042", or null for a draft (the month is still open). */
  number: string | null;
  status: "draft" | "issued";
  issuedOn: string | null;
  dueOn: string | null;
  seller: Seller;
  buyer: { id: string; name: string; email: string };
  statement: Statement;
  subtotalUsdCents: number;
  feesUsdCents: number;
  totalUsdCents: number;
  prepaidUsdCents: number;
  /** Taken from the buyer's credit balance (an overpayment, a credit note). */
  creditUsdCents: number;
  /** What the invoice asks for: the total less card payments, to the cent, less credit. */
  amountDueUsdCents: number;
  /** Receivables (issue 38): the state, payments and what is left; null on a draft. */
  receivable: InvoiceWire | null;
}

export { formatInvoiceNumber };

/** The invoice of a statement; a closed one with lines gets its number on first need. */
export async function invoiceOf(
  db: Client,
  statement: Statement,
  parties: { buyer: Invoice["buyer"]; seller: Seller },
  options: { now: Date; settings: ReceivablesSettings },
): Promise<Invoice> {
  const s = statement;
  const issued = s.state === "closed" && s.closedAt !== null && s.lines.length > 0;
  const number = issued ? await invoiceNumber(db, s.buyerId, s.month, new Date(s.closedAt!)) : null;
  const row = number ? await receivableOf(db, s, number, options.settings) : null;
  const receivable = row ? invoiceWire(row, await paymentsOf(db, [row.seq]), options) : null;
  // Lines at the publishers' prices, their subtotal, the platform fees and the total, each as the
  // statement prints it, so they add up to the cent as printed (docs/decisions/billing.md "One
  // rounding rule").
  return {
    number: number ? formatInvoiceNumber(number.seq) : null,
    status: number ? "issued" : "draft",
    issuedOn: number ? day(number.issuedAt) : null,
    dueOn: row ? day(row.dueAt) : null,
    seller: parties.seller,
    buyer: parties.buyer,
    statement: s,
    subtotalUsdCents: addCents(s.lines.map((l) => l.priceUsdCents)),
    feesUsdCents: s.platformFeesUsdCents,
    totalUsdCents: s.totalUsdCents,
    prepaidUsdCents: s.prepaidUsdCents,
    creditUsdCents: row ? microsToWholeCents(row.creditMicros) : 0,
    amountDueUsdCents: row ? microsToWholeCents(row.amountDueMicros) : s.amountDueUsdCents,
    receivable,
  };
}

/**
 * The invoice's receivable row; a statement closed before receivables existed (and numbered
 * only now) is issued on first need, as its number was.
 */
async function receivableOf(
  db: Client,
  s: Statement,
  number: { seq: number; issuedAt: number },
  settings: ReceivablesSettings,
): Promise<InvoiceRow> {
  const found = await getInvoice(db, number.seq);
  if (found) return found;
  const tx = await db.transaction("write");
  try {
    await issueInvoice(tx, {
      seq: number.seq,
      buyerId: s.buyerId,
      month: s.month,
      issuedAt: new Date(number.issuedAt),
      totalMicros: s.totalMicros,
      prepaidMicros: sumMicros(s.lines.filter((l) => l.prepaid).map((l) => l.amountMicros)),
      settings,
    });
    await tx.commit();
  } finally {
    tx.close();
  }
  return (await getInvoice(db, number.seq))!;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
