/**
 * A buyer's statement as an invoice (issue 34; docs/decisions/billing.md "Invoices"): a closed
 * month is issued with a number from one global sequence (FOLIO-000001, …) on the day it closed,
 * due NET_DAYS later; the open month is a draft without number or dates. The seller is the Folio
 * operator (Config.seller); the totals add up to the cent: fees are the total less the subtotal.
 */
import type { Client } from "../../../store/db.ts";
import { invoiceNumber } from "../../../store/invoices.ts";
import type { Seller } from "../../platform/config.ts";
import { microsToCents, subtractMicros, sumMicros } from "../../platform/money.ts";
import type { Statement } from "./statement.ts";

/** Days from issue to due date. */
export const NET_DAYS = 30;

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
  amountDueUsdCents: number;
}

/** The number as printed. */
export function formatInvoiceNumber(seq: number): string {
  return `FOLIO-${String(seq).padStart(6, "0")}`;
}

/** The invoice of a statement; a closed one with lines gets its number on first need. */
export async function invoiceOf(
  db: Client,
  statement: Statement,
  parties: { buyer: Invoice["buyer"]; seller: Seller },
): Promise<Invoice> {
  const s = statement;
  const issued = s.state === "closed" && s.closedAt !== null && s.lines.length > 0;
  const number = issued ? await invoiceNumber(db, s.buyerId, s.month, new Date(s.closedAt!)) : null;
  // Lines, subtotal, fees and total to the micro-dollar, so they add up as printed; only the
  // amount due is rounded to the cent (docs/decisions/billing.md "Invoices").
  const subtotal = sumMicros(s.lines.map((l) => l.priceMicros));
  return {
    number: number ? formatInvoiceNumber(number.seq) : null,
    status: number ? "issued" : "draft",
    issuedOn: number ? day(number.issuedAt) : null,
    dueOn: number ? day(number.issuedAt + NET_DAYS * 86_400_000) : null,
    seller: parties.seller,
    buyer: parties.buyer,
    statement: s,
    subtotalUsdCents: microsToCents(subtotal),
    feesUsdCents: microsToCents(subtractMicros(s.totalMicros, subtotal)),
    totalUsdCents: microsToCents(s.totalMicros),
    prepaidUsdCents: s.prepaidUsdCents,
    amountDueUsdCents: s.amountDueUsdCents,
  };
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
