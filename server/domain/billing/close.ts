/**
 * Month close (docs/DESIGN.md section 8, run by cron under a lease): freezes every buyer's statement for
 * a finished month and computes the publishers' payouts. Each statement closes in its own write
 * transaction, so a read charged at the same moment either lands on it or, once it is closed, on
 * the next month as an adjustment (store/statements.ts openStatementMonth). Safe to run again.
 */
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import { payoutsOfMonth, upsertPayouts } from "../../../store/payouts.ts";
import { invoiceNumber } from "../../../store/invoices.ts";
import { buyersWithOpenStatement, insertClosedStatement } from "../../../store/statements.ts";
import { monthOf } from "../../platform/clock.ts";
import { withLease } from "../../../store/leases.ts";
import { microsToWholeCents, sumMicros } from "../../platform/money.ts";
import { notify } from "../webhooks/events.ts";
import { isMonth, previousMonth } from "./months.ts";
import { DEFAULT_RECEIVABLES, type ReceivablesSettings } from "./invoice_terms.ts";
import { issueInvoice } from "./receivables.ts";
import { statementFromLedger } from "./statement.ts";
import { rollMonth } from "./subscriptions.ts";

/** Closes `month` (which must be over): statements, then payouts. */
export async function closeMonth(
  db: Client,
  options: { month: string; now: Date; receivables?: ReceivablesSettings },
): Promise<{ statementsClosed: number; payouts: number }> {
  const { month, now } = options;
  if (!isMonth(month) || month >= monthOf(now)) {
    throw new RangeError(`Cannot close month "${month}": it is not over yet`);
  }
  let statementsClosed = 0;
  for (const buyerId of await buyersWithOpenStatement(db, month)) {
    if (await closeStatement(db, buyerId, options)) statementsClosed++;
  }
  const tx = await db.transaction("write");
  try {
    const payouts = await upsertPayouts(tx, month, { newId: () => newId("pay"), now });
    for (const p of await payoutsOfMonth(tx, month)) {
      await notify(tx, { kind: "publisher", id: p.publisherId }, "statement.closed", {
        month,
        payoutUsdCents: microsToWholeCents(p.amountMicros),
      }, { now, dedupe: `statement:${month}` });
    }
    await tx.commit();
    return { statementsClosed, payouts };
  } finally {
    tx.close();
  }
}

/** Freezes one buyer's statement and issues its invoice; false when it was already closed. */
export async function closeStatement(
  db: Client,
  buyerId: string,
  options: { month: string; now: Date; receivables?: ReceivablesSettings },
): Promise<boolean> {
  const tx = await db.transaction("write");
  try {
    const statement = await statementFromLedger(tx, buyerId, options.month);
    const doc = { ...statement, state: "closed" as const, closedAt: options.now.toISOString() };
    const closed = await insertClosedStatement(tx, buyerId, {
      id: newId("stm"),
      month: options.month,
      totalMicros: doc.totalMicros,
      document: JSON.stringify(doc),
      now: options.now,
    });
    if (closed && doc.lines.length > 0) {
      // The invoice's number is given out with the close, so numbers follow the order of issue;
      // the invoice is issued with it, using the buyer's credit (receivables.ts).
      const number = await invoiceNumber(tx, buyerId, options.month, options.now);
      await issueInvoice(tx, {
        seq: number.seq,
        buyerId,
        month: options.month,
        issuedAt: options.now,
        totalMicros: doc.totalMicros,
        prepaidMicros: sumMicros(doc.lines.filter((l) => l.prepaid).map((l) => l.amountMicros)),
        settings: options.receivables ?? DEFAULT_RECEIVABLES,
      });
    }
    if (closed) {
      await notify(tx, { kind: "buyer", id: buyerId }, "statement.closed", {
        month: options.month,
        totalUsdCents: doc.totalUsdCents,
        amountDueUsdCents: doc.amountDueUsdCents,
      }, { now: options.now, dedupe: `statement:${options.month}` });
    }
    await tx.commit();
    return closed;
  } finally {
    tx.close();
  }
}

/**
 * The billing cron: on any run, bill this month's renewals and close last month, under the lease
 * "billing-month" so one node does it. Runs are idempotent, so an hourly schedule is fine.
 */
export async function runBillingCron(
  db: Client,
  options: { holder: string; now: Date; ttlMs?: number; receivables?: ReceivablesSettings },
): Promise<{ ran: boolean; renewals?: number; statementsClosed?: number; payouts?: number }> {
  const { now } = options;
  const lease = await withLease(db, "billing-month", {
    holder: options.holder,
    ttlMs: options.ttlMs ?? 10 * 60_000,
    now,
  }, async () => {
    const month = monthOf(now);
    const renewals = await rollMonth(db, { month, now });
    return {
      renewals,
      ...await closeMonth(db, {
        month: previousMonth(month),
        now,
        receivables: options.receivables,
      }),
    };
  });
  return lease.ran ? { ran: true, ...lease.result } : { ran: false };
}
