/**
 * An invoice's number, its links and the receivables' settings (issue 38; docs/decisions/billing.md
 * "Receivables"): the small shared vocabulary of invoices, payments, credit control and suspension.
 */
import type { InvoiceRow } from "../../../store/receivables.ts";
import { type Config, RECEIVABLES, type Receivables } from "../../platform/config.ts";
import { subtractMicros } from "../../platform/money.ts";

/** The number as printed. */
export function formatInvoiceNumber(seq: number): string {
  return `FOLIO-${String(seq).padStart(6, "0")}`;
}

/** The sequence number of "FOLIO-000042" (or "42"); null when it is not one. */
export function parseInvoiceNumber(text: string): number | null {
  const m = /^(?:FOLIO-)?(\d{1,12})$/i.exec(text.trim());
  return m && Number(m[1]) > 0 ? Number(m[1]) : null;
}

/** Credit control's settings and the origin the links in events and refusals use. */
export interface ReceivablesSettings extends Receivables {
  baseUrl: string;
}

/** The defaults, with relative links (tests that call the domain directly). */
export const DEFAULT_RECEIVABLES: ReceivablesSettings = { ...RECEIVABLES, baseUrl: "" };

/** The settings a node runs with. */
export function receivablesSettings(
  config: Pick<Config, "receivables" | "baseUrl">,
): ReceivablesSettings {
  return { ...config.receivables, baseUrl: config.baseUrl };
}

/** The buyer portal's page of an invoice: where a person sees and pays it. */
export function invoiceUrl(settings: Pick<ReceivablesSettings, "baseUrl">, month: string): string {
  return `${settings.baseUrl}/buyer/statements/${month}/invoice`;
}

/** What is still to pay on an invoice, in micros. */
export function remainingMicros(i: Pick<InvoiceRow, "amountDueMicros" | "paidMicros">): number {
  return subtractMicros(i.amountDueMicros, i.paidMicros);
}

/** True when the invoice is unpaid past its due date at `now`. */
export function isOverdue(i: Pick<InvoiceRow, "state" | "dueAt">, now: Date): boolean {
  return (i.state === "open" || i.state === "partially_paid") && i.dueAt < now.getTime();
}

/** The data every invoice event carries (docs/decisions/webhooks.md). */
export function invoiceEventData(i: InvoiceRow, settings: ReceivablesSettings) {
  return {
    invoiceNumber: formatInvoiceNumber(i.seq),
    month: i.month,
    totalMicros: i.totalMicros,
    amountDueMicros: remainingMicros(i),
    dueAt: new Date(i.dueAt).toISOString(),
    url: invoiceUrl(settings, i.month),
  };
}
