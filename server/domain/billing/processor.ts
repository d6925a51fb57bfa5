/**
 * The payment processor seam (docs/DESIGN.md section 3: "payment processor adapters"). Checkout is
 * optional: with no processor configured, subscriptions activate at once and are invoiced on the
 * monthly statement (docs/SPEC.md "What the service does" 4).
 */

/** What a buyer is asked to pay for at checkout. */
export interface CheckoutRequest {
  /** Our license id; the processor echoes it back as the client reference. */
  licenseId: string;
  buyerEmail: string;
  description: string;
  /** Monthly price in whole US cents. */
  monthlyUsdCents: number;
  successUrl: string;
  cancelUrl: string;
  /** Stable per pending license, so a double-click opens one session (docs/TEST-PLAN.md B13). */
  idempotencyKey: string;
}

/** An invoice to pay once by card (Checkout in payment mode, issue 38). */
export interface InvoiceCheckoutRequest {
  invoiceSeq: number;
  invoiceNumber: string;
  buyerEmail: string;
  /** What is left to pay, in whole US cents. */
  amountUsdCents: number;
  successUrl: string;
  cancelUrl: string;
  /** Stable per invoice and amount, so a second click opens the same session. */
  idempotencyKey: string;
}

/** A checkout session as the processor reports it. */
export interface CheckoutSession {
  id: string;
  url: string | null;
  /** "complete" once the buyer finished checkout. */
  status: "open" | "complete" | "expired";
  /** "paid" or "no_payment_required" when the money is in. */
  paymentStatus: string;
  subscriptionId: string | null;
  licenseId: string | null;
}

/** A verified processor event. */
export interface ProcessorEvent {
  id: string;
  type: string;
  /** The event's object (`data.object`). */
  object: Record<string, unknown>;
}

/** A payment processor. */
export interface PaymentProcessor {
  createCheckout(req: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** A one-off payment of an invoice (Checkout in payment mode). */
  createInvoiceCheckout(req: InvoiceCheckoutRequest): Promise<{ sessionId: string; url: string }>;
  retrieveCheckout(sessionId: string): Promise<CheckoutSession>;
  /** Stops the processor renewing a subscription; it runs to the end of the period paid for. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** Verifies the signature over the raw body; throws a 400 AppError when it does not hold. */
  verifyWebhook(
    rawBody: string,
    signatureHeader: string | null,
    options: { now: Date },
  ): Promise<ProcessorEvent>;
}

/** True when the session's money is in: the moment a license may activate. */
export function checkoutPaid(s: CheckoutSession): boolean {
  return s.status === "complete" &&
    (s.paymentStatus === "paid" || s.paymentStatus === "no_payment_required");
}
