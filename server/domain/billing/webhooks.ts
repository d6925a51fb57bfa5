/**
 * Processor webhooks: verified over the raw body, then applied exactly once. The event id is
 * claimed in the same write transaction as its effect, so duplicate or concurrent deliveries of one
 * event change nothing after the first (docs/TEST-PLAN.md B12); unhandled types are acknowledged as no-ops.
 */
import type { Client } from "../../../store/db.ts";
import { claimPaymentEvent, recordPaymentEffect } from "../../../store/payment_events.ts";
import { invoiceOfSession, settleInvoiceSession } from "./invoice_checkout.ts";
import { DEFAULT_RECEIVABLES, type ReceivablesSettings } from "./invoice_terms.ts";
import type { PaymentProcessor } from "./processor.ts";
import { toSession } from "./stripe.ts";
import { activateSession, cancelByProcessor } from "./subscriptions.ts";

/** What a delivery did. */
export interface WebhookResult {
  eventId: string;
  duplicate: boolean;
  effect: "activated" | "canceled" | "paid" | "credited" | "none";
}

/** Verifies and applies one webhook delivery. */
export async function handleWebhook(
  deps: { db: Client; processor: PaymentProcessor; settings?: ReceivablesSettings },
  delivery: { rawBody: string; signature: string | null; now: Date },
): Promise<WebhookResult> {
  const { now } = delivery;
  const event = await deps.processor.verifyWebhook(delivery.rawBody, delivery.signature, { now });
  const tx = await deps.db.transaction("write");
  try {
    if (!await claimPaymentEvent(tx, { id: event.id, type: event.type, now })) {
      await tx.commit();
      return { eventId: event.id, duplicate: true, effect: "none" };
    }
    let effect: WebhookResult["effect"] = "none";
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        // An invoice's payment-mode session records a payment (invoice_checkout.ts).
        if (invoiceOfSession(event.object) !== null) {
          effect = await settleInvoiceSession(tx, event.object, {
            now,
            eventId: event.id,
            settings: deps.settings ?? DEFAULT_RECEIVABLES,
          });
          break;
        }
        // completed may arrive unpaid (delayed payment methods): then the async event activates.
        if (await activateSession(tx, toSession(event.object), { now })) effect = "activated";
        break;
      case "checkout.session.expired":
        if (await cancelByProcessor(tx, { sessionId: String(event.object.id) }, { now })) {
          effect = "canceled";
        }
        break;
      case "customer.subscription.deleted":
        if (await cancelByProcessor(tx, { subscriptionId: String(event.object.id) }, { now })) {
          effect = "canceled";
        }
        break;
    }
    await recordPaymentEffect(tx, event.id, effect);
    await tx.commit();
    return { eventId: event.id, duplicate: false, effect };
  } finally {
    tx.close();
  }
}
