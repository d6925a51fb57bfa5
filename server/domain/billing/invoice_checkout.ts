/**
 * Paying an invoice by card (issue 38): with Stripe configured, the buyer asks for a Checkout
 * Session in payment mode for what is left to pay (the same session while that amount holds, by
 * Stripe's idempotency key), and Stripe's signed `checkout.session.completed` records the payment
 * once (idempotency key `stripe:<session id>`). Card money that meets an invoice no longer open
 * (paid by transfer meanwhile, voided) is not lost: it goes to the buyer's credit balance.
 */
import type { Client, Executor } from "../../../store/db.ts";
import { getInvoice, setInvoiceCheckout } from "../../../store/receivables.ts";
import { AppError } from "../../platform/errors.ts";
import { centsToMicros, microsToWholeCents } from "../../platform/money.ts";
import { audit } from "../audit/audit.ts";
import { grantCredit } from "./credits.ts";
import {
  formatInvoiceNumber,
  invoiceUrl,
  type ReceivablesSettings,
  remainingMicros,
} from "./invoice_terms.ts";
import type { PaymentProcessor } from "./processor.ts";
import { applyPayment } from "./receivables.ts";

/** The Checkout link for the buyer's invoice `seq`; 409 when nothing is left to pay by card. */
export async function invoiceCheckout(
  deps: { db: Client; processor: PaymentProcessor | null; settings: ReceivablesSettings },
  req: { seq: number; buyer: { id: string; email: string }; now: Date },
): Promise<{ sessionId: string; url: string }> {
  const invoice = await getInvoice(deps.db, req.seq);
  if (!invoice || invoice.buyerId !== req.buyer.id) {
    throw new AppError(404, "not_found", `No invoice ${formatInvoiceNumber(req.seq)}`);
  }
  if (!deps.processor) {
    throw new AppError(
      409,
      "card_payment_unavailable",
      "Paying by card is not set up on this node: pay by bank transfer",
    );
  }
  if (invoice.state !== "open" && invoice.state !== "partially_paid") {
    throw new AppError(
      409,
      `invoice_${invoice.state}`,
      `Invoice ${formatInvoiceNumber(req.seq)} is ${
        invoice.state.replace("_", " ")
      }: nothing to pay`,
    );
  }
  const cents = microsToWholeCents(remainingMicros(invoice));
  const page = invoiceUrl(deps.settings, invoice.month);
  const session = await deps.processor.createInvoiceCheckout({
    invoiceSeq: invoice.seq,
    invoiceNumber: formatInvoiceNumber(invoice.seq),
    buyerEmail: req.buyer.email,
    amountUsdCents: cents,
    successUrl: `${page}?paid=card`,
    cancelUrl: page,
    idempotencyKey: `invoice:${invoice.seq}:${cents}`,
  });
  await setInvoiceCheckout(deps.db, invoice.seq, {
    id: session.sessionId,
    url: session.url,
    now: req.now,
  });
  return session;
}

/** The invoice a Checkout Session pays, from its metadata; null for a subscription's session. */
export function invoiceOfSession(object: Record<string, unknown>): number | null {
  const meta = (object.metadata ?? {}) as Record<string, unknown>;
  const seq = Number(meta.invoice_seq);
  return object.mode === "payment" && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/**
 * Records a completed, paid invoice session inside the webhook's transaction: "paid" when it
 * settled (some of) the invoice, "credited" when the invoice was no longer payable, "none"
 * while the money is not in yet (a delayed method: the async event follows).
 */
export async function settleInvoiceSession(
  tx: Executor,
  object: Record<string, unknown>,
  options: { now: Date; eventId: string; settings: ReceivablesSettings },
): Promise<"paid" | "credited" | "none"> {
  const seq = invoiceOfSession(object)!;
  if (object.payment_status !== "paid") return "none";
  const cents = Number(object.amount_total);
  const invoice = await getInvoice(tx, seq);
  if (!invoice || !Number.isSafeInteger(cents) || cents <= 0) return "none";
  const amountMicros = centsToMicros(cents);
  const sessionId = String(object.id);
  if (invoice.state !== "open" && invoice.state !== "partially_paid") {
    await grantCredit(tx, {
      buyerId: invoice.buyerId,
      amountMicros,
      source: "overpayment",
      sourceId: `stripe:${sessionId}`,
      now: options.now,
    });
    await audit(tx, {
      actor: { kind: "stripe", id: options.eventId },
      action: "credit.granted",
      subject: { kind: "buyer", id: invoice.buyerId },
      after: { amountMicros, source: "overpayment", sourceId: `stripe:${sessionId}` },
      reason: `Card payment for invoice ${formatInvoiceNumber(seq)}, which was ${invoice.state}`,
      now: options.now,
    });
    return "credited";
  }
  await applyPayment(tx, {
    seq,
    amountMicros,
    paidOn: options.now.toISOString().slice(0, 10),
    method: "stripe",
    reference: typeof object.payment_intent === "string" ? object.payment_intent : sessionId,
    idempotencyKey: `stripe:${sessionId}`,
    actor: { kind: "stripe", id: options.eventId },
  }, options);
  return "paid";
}
