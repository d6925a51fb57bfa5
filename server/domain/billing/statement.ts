/**
 * A buyer's consolidated monthly statement (docs/SPEC.md "Buyer marketplace API"), built from the
 * ledger so that its total always equals the sum of its lines and of the ledger rows on it. Once
 * closed (server/domain/billing/close.ts) the stored document is returned verbatim and never changes;
 * usage that arrives for a closed month sits on the next statement as an adjustment line.
 */
import { ledgerForMonth } from "../../../store/charges.ts";
import type { Client } from "../../../store/db.ts";
import type { Executor } from "../../../store/db.ts";
import { getClosedStatement } from "../../../store/statements.ts";
import {
  addCents,
  centsToMicros,
  printedCents,
  subtractCents,
  sumMicros,
  usdDecimal,
} from "../../platform/money.ts";
import { monthOf } from "../../platform/clock.ts";
import { isMonth, monthStart, nextMonth } from "./months.ts";

/** One line of a statement. Amounts are in micro-dollars; `...Cents` fields are for display. */
export interface StatementLine {
  kind: "subscription" | "metered" | "landing" | "adjustment";
  /** The ledger kind of its items (an adjustment's own; absent on statements closed before). */
  itemKind?: "subscription" | "metered" | "landing" | "adjustment";
  publisherId: string;
  publisherName: string;
  description: string;
  quantity: number;
  /** The month the usage happened in (differs from the statement's for adjustments). */
  usageMonth: string;
  /** Collected by card at checkout; shown for completeness, not due again. */
  prepaid: boolean;
  /** The publisher's own prices. */
  priceMicros: number;
  /** The platform fee (4.7% on landing-path charges, else 0). */
  feeMicros: number;
  amountMicros: number;
  /** As printed, whole cents: the statement's one rounding (money.ts `printedCents`). */
  priceUsdCents: number;
  feeUsdCents: number;
  amountUsdCents: number;
}

/** The statement of one buyer for one UTC month ("YYYY-MM"). */
export interface Statement {
  buyerId: string;
  month: string;
  state: "open" | "closed";
  closedAt: string | null;
  currency: "usd";
  lines: StatementLine[];
  subscriptionFeesUsdCents: number;
  meteredUsdCents: number;
  landingUsdCents: number;
  adjustmentsUsdCents: number;
  platformFeesUsdCents: number;
  totalMicros: number;
  totalUsdCents: number;
  prepaidUsdCents: number;
  /** What the invoice asks for: the total less what the processor already collected. */
  amountDueUsdCents: number;
  settlement: "invoice";
}

/**
 * A statement as the marketplace API sends it (GET /statement): cents for display, and the exact
 * micro-dollars its items add up to, with each line's drill-down to them.
 */
export type StatementWire = Omit<Statement, "totalMicros" | "lines"> & {
  lines: (Omit<StatementLine, "priceMicros" | "feeMicros" | "amountMicros" | "itemKind"> & {
    priceUsdMicros: number;
    feeUsdMicros: number;
    amountUsdMicros: number;
    /** The line's items: GET this (the marketplace's items route with the line's filters). */
    itemsUrl: string;
  })[];
  totalUsdMicros: number;
  /** How the statement is paid, and that automatic card collection is still to come. */
  settlementNote: string;
};

/** docs/SPEC.md "What the service does" 4: settled by invoice; card collection announced. */
export const SETTLEMENT_NOTE =
  "Statements are settled by invoice; automatic card collection is a future capability and is not available yet.";

const DESCRIPTIONS: Record<StatementLine["kind"], string> = {
  subscription: "Monthly license fee",
  metered: "Metered reads",
  // The fee is its own column on the statement and its own line on the invoice, not in this one.
  landing: "Agent payments on publisher pages",
  adjustment: "Credit notes (accepted disputes)",
};

/**
 * The statement of `buyerId` for `month`: the closed document, or the open one from the ledger.
 * Given `now`, a finished month with nothing on it reports closed: month close stores statements
 * only for buyers with ledger rows, and there is nothing left to add to an empty past month.
 */
export async function buildStatement(
  db: Client,
  buyerId: string,
  month: string,
  options?: { now: Date },
): Promise<Statement> {
  if (!isMonth(month)) throw new RangeError(`Bad month "${month}"`);
  const closed = await getClosedStatement(db, buyerId, month);
  if (closed) return printed(JSON.parse(closed.document) as Statement);
  const statement = await statementFromLedger(db, buyerId, month);
  if (options && statement.lines.length === 0 && month < monthOf(options.now)) {
    return { ...statement, state: "closed", closedAt: monthStart(nextMonth(month)).toISOString() };
  }
  return statement;
}

/** The statement as the ledger has it now (what closing freezes). */
export async function statementFromLedger(
  db: Executor,
  buyerId: string,
  month: string,
): Promise<Statement> {
  const lines: StatementLine[] = (await ledgerForMonth(db, buyerId, month)).map((g) => {
    const late = g.usageMonth !== month;
    return {
      kind: late ? "adjustment" : g.kind,
      itemKind: g.kind,
      publisherId: g.publisherId,
      publisherName: g.publisherName,
      description: late
        ? `Late ${DESCRIPTIONS[g.kind].toLowerCase()} from ${g.usageMonth}`
        : DESCRIPTIONS[g.kind],
      quantity: g.count,
      usageMonth: g.usageMonth,
      prepaid: g.prepaid,
      priceMicros: g.priceMicros,
      feeMicros: g.feeMicros,
      amountMicros: sumMicros([g.priceMicros, g.feeMicros]),
      priceUsdCents: 0,
      feeUsdCents: 0,
      amountUsdCents: 0,
    };
  });
  return printed({
    buyerId,
    month,
    state: "open",
    closedAt: null,
    currency: "usd",
    lines,
    subscriptionFeesUsdCents: 0,
    meteredUsdCents: 0,
    landingUsdCents: 0,
    adjustmentsUsdCents: 0,
    platformFeesUsdCents: 0,
    totalMicros: sumMicros(lines.map((l) => l.amountMicros)),
    totalUsdCents: 0,
    prepaidUsdCents: 0,
    amountDueUsdCents: 0,
    settlement: "invoice",
  });
}

/**
 * The statement's cents as printed, from its micro-dollars by the one rounding rule (money.ts
 * `printedCents`, docs/decisions/billing.md "One rounding rule"): the total rounded once, each line
 * split to the cent, and every subtotal the sum of the lines printed above it. Done at every read,
 * so statements closed before the rule print by it too (their micro-dollars never change).
 */
function printed(s: Statement): Statement {
  const p = printedCents(s.lines);
  const lines = s.lines.map((l, i) => ({
    ...l,
    priceUsdCents: p.lines[i].priceCents,
    feeUsdCents: p.lines[i].feeCents,
    amountUsdCents: p.lines[i].amountCents,
  }));
  const sum = (keep: (l: StatementLine) => boolean) =>
    addCents(lines.filter(keep).map((l) => l.amountUsdCents));
  const prepaid = sum((l) => l.prepaid);
  return {
    ...s,
    lines,
    subscriptionFeesUsdCents: sum((l) => l.kind === "subscription"),
    meteredUsdCents: sum((l) => l.kind === "metered"),
    landingUsdCents: sum((l) => l.kind === "landing"),
    adjustmentsUsdCents: sum((l) => l.kind === "adjustment"),
    platformFeesUsdCents: p.feesCents,
    totalUsdCents: p.totalCents,
    prepaidUsdCents: prepaid,
    amountDueUsdCents: subtractCents(p.totalCents, prepaid),
  };
}

/**
 * A statement as CSV (docs/decisions/billing.md "One rounding rule"): every amount in micro-dollars
 * (1 USD = 1,000,000), in columns that say so, and the Total row the exact sum of the lines above;
 * its description names the total as invoiced, rounded once to the cent. Every text cell is guarded
 * against formula injection (docs/TEST-PLAN.md 4.23).
 */
export function statementCsv(s: Statement): string {
  const rows = [[
    "month",
    "publisher",
    "kind",
    "description",
    "quantity",
    "price_usd_micros",
    "fee_usd_micros",
    "amount_usd_micros",
  ]];
  for (const l of s.lines) {
    rows.push([
      s.month,
      l.publisherName,
      l.kind,
      l.description,
      String(l.quantity),
      String(l.priceMicros),
      String(l.feeMicros),
      String(l.amountMicros),
    ]);
  }
  const total = (pick: (l: StatementLine) => number) => String(sumMicros(s.lines.map(pick)));
  rows.push([
    s.month,
    "",
    "total",
    `Total, invoiced as ${
      usdDecimal(centsToMicros(s.totalUsdCents))
    } USD (rounded once to the cent)`,
    String(s.lines.reduce((t, l) => t + l.quantity, 0)),
    total((l) => l.priceMicros),
    total((l) => l.feeMicros),
    total((l) => l.amountMicros),
  ]);
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Quotes a CSV cell and defuses spreadsheet formulas (=, +, -, @, tab, CR). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}
