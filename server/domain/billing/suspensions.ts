/**
 * Suspension for an overdue invoice, and by hand (issue 38; docs/decisions/billing.md
 * "Suspension"). A suspended buyer's priced reads are refused with `payment_overdue` by the one
 * access decision (server/domain/licensing/decide.ts), which finds the suspension with the buyer
 * in the configuration cache (store/suspensions.ts). Paying (or voiding) the invoice that caused
 * it lifts it in the same transaction; a suspension by hand is lifted only by hand.
 */
import type { Client, Executor } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import { type InvoiceRow, listInvoices } from "../../../store/receivables.ts";
import {
  buyerSuspension,
  liftSuspension,
  startSuspension,
  type Suspension,
} from "../../../store/suspensions.ts";
import { getBuyer } from "../../../store/buyers.ts";
import { AppError } from "../../platform/errors.ts";
import { type Actor, audit, SYSTEM } from "../audit/audit.ts";
import { notify } from "../webhooks/events.ts";
import { formatInvoiceNumber, type ReceivablesSettings } from "./invoice_terms.ts";

export type { Suspension };

/** The buyer portal's list of statements and invoices: where a suspension by hand points. */
export function invoicesUrl(settings: Pick<ReceivablesSettings, "baseUrl">): string {
  return `${settings.baseUrl}/buyer/statements`;
}

/** The first invoice of the buyer unpaid past due date plus grace at `now`, if any. */
export async function overduePastGrace(
  db: Executor,
  buyerId: string,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<InvoiceRow | null> {
  const graceMs = options.settings.graceDays * 86_400_000;
  const overdue = await listInvoices(db, {
    buyerId,
    overdueAt: options.now.getTime() - graceMs,
  }, { limit: 50, offset: 0 });
  return overdue.at(-1) ?? null;
}

/** Suspends the buyer for `invoice`, once; emits `buyer.suspended`. False when already suspended. */
export async function suspendForInvoice(
  tx: Executor,
  invoice: InvoiceRow,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<boolean> {
  const number = formatInvoiceNumber(invoice.seq);
  const suspension: Suspension = {
    reason: "payment_overdue",
    invoiceNumber: number,
    url: `${options.settings.baseUrl}/buyer/statements/${invoice.month}/invoice`,
    note: `Invoice ${number} is unpaid ${options.settings.graceDays} days past its due date`,
    since: options.now.getTime(),
  };
  const started = await startSuspension(tx, {
    id: newId("sus"),
    buyerId: invoice.buyerId,
    suspension,
    by: "credit-control",
    invoiceSeq: invoice.seq,
  });
  if (started) {
    await emit(tx, invoice.buyerId, "buyer.suspended", suspension, options.now);
    await auditSuspension(
      tx,
      SYSTEM,
      "buyer.suspended",
      invoice.buyerId,
      null,
      suspension,
      options.now,
    );
  }
  return started;
}

/**
 * After a payment or a void: lifts a suspension for an overdue invoice once no invoice of the
 * buyer is unpaid past its grace, or moves it to the one that still is. A suspension by hand stays.
 */
export async function reviewSuspension(
  tx: Executor,
  buyerId: string,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<void> {
  const current = await buyerSuspension(tx, buyerId);
  if (!current || current.reason !== "payment_overdue") return;
  const still = await overduePastGrace(tx, buyerId, options);
  if (still && formatInvoiceNumber(still.seq) === current.invoiceNumber) return;
  await liftSuspension(tx, {
    buyerId,
    by: "credit-control",
    note: "Invoice paid",
    now: options.now,
  });
  await auditSuspension(tx, SYSTEM, "buyer.reinstated", buyerId, current, null, options.now);
  if (still) {
    await suspendForInvoice(tx, still, options);
    return;
  }
  await emit(tx, buyerId, "buyer.reinstated", { ...current, reason: "invoice_paid" }, options.now);
}

/** Suspends a buyer by hand with a reason; 409 when it is already suspended. */
export async function suspendByHand(
  db: Client,
  input: { buyerId: string; note: string; actor: Actor },
  options: { now: Date; settings: ReceivablesSettings },
): Promise<{ before: Suspension | null; after: Suspension }> {
  const tx = await db.transaction("write");
  try {
    if (!await getBuyer(tx, input.buyerId)) {
      throw new AppError(404, "not_found", "No such buyer");
    }
    const before = await buyerSuspension(tx, input.buyerId);
    if (before) throw new AppError(409, "already_suspended", "This buyer is already suspended");
    const after: Suspension = {
      reason: "manual",
      invoiceNumber: null,
      url: invoicesUrl(options.settings),
      note: input.note,
      since: options.now.getTime(),
    };
    await startSuspension(tx, {
      id: newId("sus"),
      buyerId: input.buyerId,
      suspension: after,
      by: `${input.actor.kind}:${input.actor.id}`,
      invoiceSeq: null,
    });
    await emit(tx, input.buyerId, "buyer.suspended", after, options.now);
    await auditSuspension(
      tx,
      input.actor,
      "buyer.suspended",
      input.buyerId,
      null,
      after,
      options.now,
      input.note,
    );
    await tx.commit();
    return { before, after };
  } finally {
    tx.close();
  }
}

/** Lifts a buyer's suspension by hand, whatever its reason; 409 when it is not suspended. */
export async function liftByHand(
  db: Client,
  input: { buyerId: string; note: string; actor: Actor },
  options: { now: Date },
): Promise<{ before: Suspension; after: null }> {
  const tx = await db.transaction("write");
  try {
    const before = await buyerSuspension(tx, input.buyerId);
    if (!before) throw new AppError(409, "not_suspended", "This buyer is not suspended");
    await liftSuspension(tx, {
      buyerId: input.buyerId,
      by: `${input.actor.kind}:${input.actor.id}`,
      note: input.note,
      now: options.now,
    });
    await emit(tx, input.buyerId, "buyer.reinstated", { ...before, reason: "lifted" }, options.now);
    await auditSuspension(
      tx,
      input.actor,
      "buyer.reinstated",
      input.buyerId,
      before,
      null,
      options.now,
      input.note,
    );
    await tx.commit();
    return { before, after: null };
  } finally {
    tx.close();
  }
}

async function auditSuspension(
  tx: Executor,
  actor: Actor,
  action: "buyer.suspended" | "buyer.reinstated",
  buyerId: string,
  before: Suspension | null,
  after: Suspension | null,
  now: Date,
  reason?: string,
): Promise<void> {
  const fields = (s: Suspension | null) =>
    s && { suspended: true, reason: s.reason, invoiceNumber: s.invoiceNumber, note: s.note };
  await audit(tx, {
    actor,
    action,
    subject: { kind: "buyer", id: buyerId },
    before: fields(before) ?? { suspended: false },
    after: fields(after) ?? { suspended: false },
    reason: reason ?? (after ?? before)?.note ?? null,
    now,
  });
}

async function emit(
  tx: Executor,
  buyerId: string,
  type: "buyer.suspended" | "buyer.reinstated",
  s: Pick<Suspension, "invoiceNumber" | "url" | "since"> & { reason: string; note?: string },
  now: Date,
): Promise<void> {
  await notify(tx, { kind: "buyer", id: buyerId }, type, {
    reason: s.reason,
    invoiceNumber: s.invoiceNumber,
    url: s.url,
    ...(s.note ? { note: s.note } : {}),
  }, { now, dedupe: `${type}:${s.since}` });
}
