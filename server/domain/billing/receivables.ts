/**
 * Receivables (issue 38; docs/decisions/billing.md "Receivables"): an issued invoice's state,
 * Stripe Invoicing's (`open`, `paid`, `void`, `uncollectible`) plus `partially_paid`, and the
 * payments that move it. Every transition is one function in one write transaction, the place that
 * emits its event; a payment, the invoice's new state, the credit an overpayment leaves and a
 * suspension it lifts commit together or not at all.
 */
import type { Client, Executor } from "../../../store/db.ts";
import { insertCreditEntry } from "../../../store/credits.ts";
import { newId } from "../../../store/ids.ts";
import {
  closeInvoice,
  getInvoice,
  insertInvoice,
  insertPayment,
  type InvoiceRow,
  type InvoiceState,
  paymentByKey,
  type PaymentRow,
  setInvoicePaid,
} from "../../../store/receivables.ts";
import { AppError } from "../../platform/errors.ts";
import {
  centsToMicros,
  isWholeCents,
  microsToWholeCents,
  subtractMicros,
  sumMicros,
} from "../../platform/money.ts";
import { notify } from "../webhooks/events.ts";
import { type Actor, audit, SYSTEM } from "../audit/audit.ts";
import { grantCredit, useCredit } from "./credits.ts";
import {
  formatInvoiceNumber,
  invoiceEventData,
  type ReceivablesSettings,
  remainingMicros,
} from "./invoice_terms.ts";
import { reviewSuspension } from "./suspensions.ts";

export type { InvoiceRow, InvoiceState, PaymentRow, ReceivablesSettings };

/** How a payment came in. */
export const PAYMENT_METHODS = [
  "bank_transfer",
  "card",
  "stripe",
  "check",
  "cash",
  "other",
] as const;
export type PaymentMethod = typeof PAYMENT_METHODS[number];

/** Beyond what is left to pay, an overpayment may add at most this much (or as much again). */
export const OVERPAYMENT_ALLOWANCE_MICROS = 100_000_000;

/**
 * Issues invoice `seq` for a closed statement, in the close's transaction: due `netDays` later,
 * asking for the total less what was paid by card, rounded to the cent, less the buyer's credit
 * (whole cents of it). Nothing to pay makes it `paid` at once. False when it existed already.
 */
export async function issueInvoice(
  tx: Executor,
  i: {
    seq: number;
    buyerId: string;
    month: string;
    issuedAt: Date;
    totalMicros: number;
    prepaidMicros: number;
    settings: ReceivablesSettings;
  },
): Promise<boolean> {
  const due = centsToMicros(microsToWholeCents(subtractMicros(i.totalMicros, i.prepaidMicros)));
  const credit = await useCredit(tx, {
    buyerId: i.buyerId,
    invoiceSeq: i.seq,
    upToMicros: Math.max(0, due),
    now: i.issuedAt,
  });
  const amountDue = subtractMicros(Math.max(0, due), credit);
  const row = {
    seq: i.seq,
    buyerId: i.buyerId,
    month: i.month,
    issuedAt: i.issuedAt.getTime(),
    dueAt: i.issuedAt.getTime() + i.settings.netDays * 86_400_000,
    totalMicros: i.totalMicros,
    prepaidMicros: i.prepaidMicros,
    creditMicros: credit,
    amountDueMicros: amountDue,
    state: amountDue === 0 ? "paid" as const : "open" as const,
    updatedAt: i.issuedAt.getTime(),
  };
  if (!await insertInvoice(tx, row)) return false;
  await audit(tx, {
    actor: SYSTEM,
    action: "invoice.issued",
    subject: { kind: "invoice", id: formatInvoiceNumber(i.seq) },
    after: {
      buyerId: i.buyerId,
      month: i.month,
      totalMicros: i.totalMicros,
      creditMicros: credit,
      amountDueMicros: amountDue,
      state: row.state,
      dueAt: new Date(row.dueAt).toISOString(),
    },
    now: i.issuedAt,
  });
  const issued = { ...row, paidMicros: 0, paidAt: null, closedReason: null };
  const doc = { ...issued, checkoutSessionId: null, checkoutUrl: null };
  const number = formatInvoiceNumber(i.seq);
  await notify(tx, { kind: "buyer", id: i.buyerId }, "invoice.issued", {
    ...invoiceEventData(doc, i.settings),
  }, { now: i.issuedAt, dedupe: `invoice:${number}:issued` });
  return true;
}

/** A payment to record (amounts in micros, whole cents). */
export interface PaymentInput {
  seq: number;
  amountMicros: number;
  /** The day the money arrived, YYYY-MM-DD. */
  paidOn: string;
  method: PaymentMethod;
  reference: string;
  /** Makes the recording once-only: a retry with the same key answers the first payment. */
  idempotencyKey: string;
  /** Who recorded it (an operator, Stripe's webhook): audited, and kept on the payment. */
  actor: Actor;
  /** When given, only this buyer's invoice may be paid (its own payment link). */
  buyerId?: string;
}

/** What a recording did. */
export interface PaymentOutcome {
  payment: PaymentRow;
  invoice: InvoiceRow;
  /** The invoice before, for the audit log. */
  before: InvoiceRow;
  /** True when the key was already recorded: nothing changed this time. */
  replayed: boolean;
  /** What went to the credit balance (an overpayment). */
  creditedMicros: number;
}

/**
 * Records a payment against invoice `seq` (docs/decisions/billing.md "Receivables"): refused, with
 * nothing changed, on a void, uncollectible or already paid invoice, for an amount that is not a
 * positive number of whole cents, or for more than what is left plus the allowance; what exceeds
 * what is left goes to the buyer's credit balance. Paying in full emits `invoice.paid` and lifts a
 * suspension the invoice caused. One write transaction, idempotent by key.
 */
export async function recordPayment(
  db: Client,
  input: PaymentInput,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<PaymentOutcome> {
  const tx = await db.transaction("write");
  try {
    const outcome = await applyPayment(tx, input, options);
    await tx.commit();
    return outcome;
  } finally {
    tx.close();
  }
}

/** `recordPayment()` inside the caller's write transaction (a processor's webhook). */
export async function applyPayment(
  tx: Executor,
  input: PaymentInput,
  options: { now: Date; settings: ReceivablesSettings },
): Promise<PaymentOutcome> {
  const { now, settings } = options;
  if (!Number.isSafeInteger(input.amountMicros) || input.amountMicros <= 0) {
    throw new AppError(
      400,
      "invalid_amount",
      "A payment must be a positive amount",
      {},
      "amountUsdMicros",
    );
  }
  if (!isWholeCents(input.amountMicros)) {
    throw new AppError(
      400,
      "invalid_amount",
      "A payment is a whole number of cents",
      {},
      "amountUsdMicros",
    );
  }
  const seen = await paymentByKey(tx, input.idempotencyKey);
  const invoice = await getInvoice(tx, input.seq);
  if (!invoice || (input.buyerId !== undefined && invoice.buyerId !== input.buyerId)) {
    throw new AppError(404, "not_found", `No invoice ${formatInvoiceNumber(input.seq)}`);
  }
  if (seen) {
    if (seen.invoiceSeq !== input.seq || seen.amountMicros !== input.amountMicros) {
      throw new AppError(
        409,
        "idempotency_key_reused",
        "This idempotency key recorded another payment; use a new key for a new payment",
      );
    }
    return {
      payment: seen,
      invoice,
      before: invoice,
      replayed: true,
      creditedMicros: subtractMicros(seen.amountMicros, seen.appliedMicros),
    };
  }
  refuseUnpayable(invoice);
  const left = remainingMicros(invoice);
  const most = sumMicros([left, Math.max(left, OVERPAYMENT_ALLOWANCE_MICROS)]);
  if (input.amountMicros > most) {
    throw new AppError(
      400,
      "payment_too_large",
      `A payment of more than ${usd(most)} on an invoice with ${
        usd(left)
      } left is refused: check the amount`,
      {},
      "amountUsdMicros",
    );
  }
  const applied = Math.min(input.amountMicros, left);
  const credited = subtractMicros(input.amountMicros, applied);
  const payment: PaymentRow = {
    id: newId("ipy"),
    invoiceSeq: input.seq,
    buyerId: invoice.buyerId,
    amountMicros: input.amountMicros,
    appliedMicros: applied,
    paidOn: input.paidOn,
    method: input.method,
    reference: input.reference,
    idempotencyKey: input.idempotencyKey,
    recordedBy: `${input.actor.kind}:${input.actor.id}`,
    createdAt: now.getTime(),
  };
  await insertPayment(tx, payment);
  const paidMicros = sumMicros([invoice.paidMicros, applied]);
  const state = paidMicros === invoice.amountDueMicros
    ? "paid" as const
    : "partially_paid" as const;
  if (!await setInvoicePaid(tx, input.seq, { paidMicros, state, now })) {
    throw new Error(`invoice ${input.seq} changed under its write lock`);
  }
  if (credited > 0) {
    await grantCredit(tx, {
      buyerId: invoice.buyerId,
      amountMicros: credited,
      source: "overpayment",
      sourceId: payment.id,
      now,
    });
  }
  const after = (await getInvoice(tx, input.seq))!;
  await audit(tx, {
    actor: input.actor,
    action: "invoice.payment_recorded",
    subject: { kind: "invoice", id: formatInvoiceNumber(input.seq) },
    before: auditFields(invoice),
    after: {
      ...auditFields(after),
      paymentId: payment.id,
      amountMicros: input.amountMicros,
      creditedMicros: credited,
      method: input.method,
      reference: input.reference,
      paidOn: input.paidOn,
    },
    now,
  });
  if (state === "paid") {
    await notify(tx, { kind: "buyer", id: invoice.buyerId }, "invoice.paid", {
      ...invoiceEventData(after, settings),
    }, { now, dedupe: `invoice:${formatInvoiceNumber(input.seq)}:paid` });
    await reviewSuspension(tx, invoice.buyerId, { now, settings });
  }
  return { payment, invoice: after, before: invoice, replayed: false, creditedMicros: credited };
}

/**
 * Voids an invoice (issued in error) or marks it uncollectible (written off), with a reason.
 * Only an open or partly paid invoice; a void one must have no payment (credit the buyer instead),
 * and gives back the credit it used. Voiding lifts a suspension it caused; writing off does not
 * (the debt is still unpaid: the operator lifts by hand if it wants to).
 */
export async function closeUnpaidInvoice(
  db: Client,
  input: { seq: number; state: "void" | "uncollectible"; reason: string; actor: Actor },
  options: { now: Date; settings: ReceivablesSettings },
): Promise<{ before: InvoiceRow; invoice: InvoiceRow }> {
  const { now } = options;
  const tx = await db.transaction("write");
  try {
    const before = await getInvoice(tx, input.seq);
    if (!before) {
      throw new AppError(404, "not_found", `No invoice ${formatInvoiceNumber(input.seq)}`);
    }
    refuseUnpayable(before);
    if (input.state === "void" && before.paidMicros > 0) {
      throw new AppError(
        409,
        "invoice_has_payments",
        "An invoice with payments recorded cannot be voided; mark it uncollectible or credit the buyer",
      );
    }
    await closeInvoice(tx, input.seq, { state: input.state, reason: input.reason, now });
    if (input.state === "void" && before.creditMicros > 0) {
      await grantCreditBack(tx, before, now);
    }
    if (input.state === "void") await reviewSuspension(tx, before.buyerId, options);
    const invoice = (await getInvoice(tx, input.seq))!;
    await audit(tx, {
      actor: input.actor,
      action: input.state === "void" ? "invoice.voided" : "invoice.marked_uncollectible",
      subject: { kind: "invoice", id: formatInvoiceNumber(input.seq) },
      before: auditFields(before),
      after: auditFields(invoice),
      reason: input.reason,
      now,
    });
    await tx.commit();
    return { before, invoice };
  } finally {
    tx.close();
  }
}

/** The fields of an invoice a person compares in the audit log (micro-dollars). */
function auditFields(i: InvoiceRow) {
  return {
    buyerId: i.buyerId,
    state: i.state,
    amountDueMicros: i.amountDueMicros,
    paidMicros: i.paidMicros,
    remainingMicros: remainingMicros(i),
  };
}

function refuseUnpayable(invoice: InvoiceRow): void {
  const number = formatInvoiceNumber(invoice.seq);
  if (invoice.state === "void") {
    throw new AppError(
      409,
      "invoice_void",
      `Invoice ${number} is void: nothing can be paid or changed on it`,
    );
  }
  if (invoice.state === "uncollectible") {
    throw new AppError(
      409,
      "invoice_uncollectible",
      `Invoice ${number} was marked uncollectible: it takes no payments`,
    );
  }
  if (invoice.state === "paid") {
    throw new AppError(409, "invoice_paid", `Invoice ${number} is already paid in full`);
  }
}

async function grantCreditBack(tx: Executor, invoice: InvoiceRow, now: Date): Promise<void> {
  await insertCreditEntry(tx, {
    id: newId("crd"),
    buyerId: invoice.buyerId,
    amountMicros: invoice.creditMicros,
    source: "void",
    sourceId: String(invoice.seq),
    now,
  });
}

function usd(micros: number): string {
  return `$${(microsToWholeCents(micros) / 100).toFixed(2)}`;
}
