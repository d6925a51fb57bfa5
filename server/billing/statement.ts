/**
 * A buyer's consolidated monthly statement (SPEC.md "Buyer marketplace API"), built from the
 * ledger so that its total always equals the sum of its lines and of the ledger rows.
 */
import { ledgerForMonth } from "../../store/charges.ts";
import type { Client } from "../../store/db.ts";
import { microsToCents, microsToWholeCents } from "../money.ts";

/** One line of a statement. Amounts are in micro-dollars; `...Cents` fields are for display. */
export interface StatementLine {
  kind: "subscription" | "metered" | "landing" | "adjustment";
  publisherId: string;
  publisherName: string;
  description: string;
  quantity: number;
  amountMicros: number;
  amountUsdCents: number;
}

/** The statement of one buyer for one UTC month ("YYYY-MM"). */
export interface Statement {
  buyerId: string;
  month: string;
  currency: "usd";
  lines: StatementLine[];
  subscriptionFeesUsdCents: number;
  meteredUsdCents: number;
  landingUsdCents: number;
  totalMicros: number;
  totalUsdCents: number;
}

const DESCRIPTIONS: Record<StatementLine["kind"], string> = {
  subscription: "Monthly license fee",
  metered: "Metered reads",
  landing: "Agent payments on publisher pages (incl. 4.7% platform fee)",
  adjustment: "Adjustment",
};

/** Builds the statement of `buyerId` for `month` from the ledger. */
export async function buildStatement(
  db: Client,
  buyerId: string,
  month: string,
): Promise<Statement> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new RangeError(`Bad month "${month}"`);
  const lines: StatementLine[] = (await ledgerForMonth(db, buyerId, month)).map((g) => {
    const amountMicros = g.priceMicros + g.feeMicros;
    return {
      kind: g.kind,
      publisherId: g.publisherId,
      publisherName: g.publisherName,
      description: DESCRIPTIONS[g.kind],
      quantity: g.count,
      amountMicros,
      amountUsdCents: microsToCents(amountMicros),
    };
  });
  const sum = (kind?: StatementLine["kind"]) =>
    lines.filter((l) => !kind || l.kind === kind).reduce((t, l) => t + l.amountMicros, 0);
  const totalMicros = sum();
  return {
    buyerId,
    month,
    currency: "usd",
    lines,
    subscriptionFeesUsdCents: microsToWholeCents(sum("subscription")),
    meteredUsdCents: microsToWholeCents(sum("metered")),
    landingUsdCents: microsToWholeCents(sum("landing")),
    totalMicros,
    totalUsdCents: microsToWholeCents(totalMicros),
  };
}

/** A statement as CSV, with every text cell guarded against formula injection (TEST-PLAN 4.23). */
export function statementCsv(s: Statement): string {
  const rows = [["month", "publisher", "kind", "description", "quantity", "amount_usd_cents"]];
  for (const l of s.lines) {
    rows.push([
      s.month,
      l.publisherName,
      l.kind,
      l.description,
      String(l.quantity),
      String(l.amountUsdCents),
    ]);
  }
  rows.push([s.month, "", "total", "Total", "", String(s.totalUsdCents)]);
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Quotes a CSV cell and defuses spreadsheet formulas (=, +, -, @, tab, CR). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}
