/**
 * Credit control (issue 38; docs/decisions/billing.md "Credit control"): reminders before an
 * invoice's due date, on it and after, each once (recorded in `invoice_reminders` in the same
 * transaction as its event), and suspension of a buyer whose invoice is unpaid past the grace
 * period. Run by cron under the lease "credit-control"; safe to run as often as wanted.
 */
import type { Client } from "../../../store/db.ts";
import { withLease } from "../../../store/leases.ts";
import { type InvoiceRow, markReminder, unpaidDueBefore } from "../../../store/receivables.ts";
import { buyerSuspension } from "../../../store/suspensions.ts";
import { notify } from "../webhooks/events.ts";
import {
  formatInvoiceNumber,
  invoiceEventData,
  type ReceivablesSettings,
} from "./invoice_terms.ts";
import { suspendForInvoice } from "./suspensions.ts";

const DAY_MS = 86_400_000;

/** The reminders, in the order they fall due, and the event each sends. */
const REMINDERS = [
  { kind: "due_soon", type: "invoice.due_soon", when: "before" },
  { kind: "due_today", type: "invoice.due_soon", when: "on" },
  { kind: "overdue", type: "invoice.overdue", when: "after" },
] as const;

/** Which reminder an invoice is owed at `now`: one a day late is not sent as "due soon". */
function reminderDue(i: InvoiceRow, now: number, settings: ReceivablesSettings) {
  if (now > i.dueAt) return REMINDERS[2];
  if (now >= i.dueAt - DAY_MS) return REMINDERS[1];
  if (now >= i.dueAt - settings.dueSoonDays * DAY_MS) return REMINDERS[0];
  return null;
}

/** One pass: reminders owed and suspensions due at `now`. */
export async function creditControl(
  db: Client,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<{ reminders: number; suspended: number }> {
  const { now, settings } = options;
  const t = now.getTime();
  let reminders = 0;
  let suspended = 0;
  for (const invoice of await unpaidDueBefore(db, t + settings.dueSoonDays * DAY_MS + 1)) {
    const reminder = reminderDue(invoice, t, settings);
    const pastGrace = t > invoice.dueAt + settings.graceDays * DAY_MS;
    const tx = await db.transaction("write");
    try {
      if (reminder && await markReminder(tx, invoice.seq, reminder.kind, now)) {
        const number = formatInvoiceNumber(invoice.seq);
        await notify(tx, { kind: "buyer", id: invoice.buyerId }, reminder.type, {
          ...invoiceEventData(invoice, settings),
          reminder: reminder.when,
        }, { now, dedupe: `invoice:${number}:${reminder.kind}` });
        reminders++;
      }
      if (pastGrace && !await buyerSuspension(tx, invoice.buyerId)) {
        if (await suspendForInvoice(tx, invoice, options)) suspended++;
      }
      await tx.commit();
    } finally {
      tx.close();
    }
  }
  return { reminders, suspended };
}

/** The cron's run: one node at a time, under a lease. */
export async function runCreditControl(
  db: Client,
  options: { holder: string; now: Date; settings: ReceivablesSettings },
): Promise<{ ran: boolean; reminders?: number; suspended?: number }> {
  const lease = await withLease(db, "credit-control", {
    holder: options.holder,
    ttlMs: 10 * 60_000,
    now: options.now,
  }, () => creditControl(db, options));
  return lease.ran ? { ran: true, ...lease.result } : { ran: false };
}
