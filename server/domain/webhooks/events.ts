/**
 * Webhook events (docs/decisions/webhooks.md): which types each kind of owner can subscribe to, the
 * event document every delivery carries (Stripe's shape: id, type, created, data), and `notify()`,
 * the one call the domain makes when something happened. notify() only writes the event and queues
 * its deliveries and its email (docs/decisions/email.md), in the caller's transaction if it passes
 * one: nothing waits on the network.
 */
import type { Executor } from "../../../store/db.ts";
import { newTimeOrderedId } from "../../../store/ids.ts";
import { insertEvent, type Owner, subscribed } from "../../../store/webhooks.ts";
import { queueEventMail } from "../notifications/outbox.ts";
import { mailsFor } from "../notifications/templates.ts";

export type { Owner };

/** Events a publisher's endpoints can subscribe to. */
export const PUBLISHER_EVENTS = [
  "license_request.created",
  "offer.accepted",
  "offer.declined",
  "statement.closed",
  "payout.paid",
  "dispute.opened",
  "dispute.escalated",
] as const;

/** Events a buyer's endpoints can subscribe to. */
export const BUYER_EVENTS = [
  "offer.created",
  "budget.threshold",
  "statement.closed",
  "dispute.decided",
  "credit_note.issued",
  "invoice.issued",
  "invoice.due_soon",
  "invoice.overdue",
  "invoice.paid",
  "buyer.suspended",
  "buyer.reinstated",
] as const;

/** Sent only by "send test event", to the one endpoint it was asked for. */
export const TEST_EVENT = "webhook.test";

export type PublisherEvent = typeof PUBLISHER_EVENTS[number];
export type BuyerEvent = typeof BUYER_EVENTS[number];
export type EventType = PublisherEvent | BuyerEvent | typeof TEST_EVENT;

/** What an owner of this kind can subscribe to. */
export function eventsFor(kind: Owner["kind"]): readonly string[] {
  return kind === "publisher" ? PUBLISHER_EVENTS : BUYER_EVENTS;
}

/** One sentence per type, for the pages' checkboxes and the API reference. */
export const EVENT_WORDS: Record<EventType, string> = {
  "license_request.created": "An agent asked for a license",
  "offer.accepted": "A buyer accepted your offer",
  "offer.declined": "A buyer declined your offer",
  "offer.created": "A publisher made you an offer",
  "budget.threshold": "A budget reached 80% or 100% this month (once each per month)",
  "statement.closed": "A month closed and its statement is final",
  "payout.paid": "A payout was sent to you (date and reference)",
  "invoice.issued": "An invoice was issued (at the month's close)",
  "invoice.due_soon": "An invoice is due in a few days, or today",
  "invoice.overdue": "An invoice is past its due date and unpaid",
  "invoice.paid": "An invoice was paid in full",
  "buyer.suspended":
    "Priced reads are suspended (an invoice overdue past its grace period, or by the operator)",
  "buyer.reinstated": "A suspension was lifted",
  "webhook.test": "A test event sent from the console",
  "dispute.opened": "A buyer disputed charges for your content",
  "dispute.escalated": "A dispute went undecided and is now the operator's to decide",
  "dispute.decided": "A dispute of yours was decided",
  "credit_note.issued": "A credit note was issued to you",
};

/** The document a delivery's body carries. */
export interface EventDocument {
  id: string;
  object: "event";
  type: string;
  /** Unix seconds, as in the signature's `t`. */
  created: number;
  owner: Owner;
  data: Record<string, unknown>;
}

/**
 * Records that `type` happened for `owner` and queues a delivery to each subscribed endpoint.
 * `dedupe` makes an event once-only per owner (a threshold per budget and month, a month closed):
 * a second notify() with the same key writes nothing. `only` sends it to that one endpoint of the
 * owner's, subscribed or not (a test event). Types with an email template (notifications/
 * templates.ts) also queue one email to each person of the owner's, whether or not an endpoint
 * listens. Answers the event id, or null when nothing was written (deduped, or neither an
 * endpoint nor an email wants it).
 */
export async function notify(
  db: Executor,
  owner: Owner,
  type: EventType,
  data: Record<string, unknown>,
  options: { now: Date; dedupe?: string; only?: string },
): Promise<string | null> {
  const mails = options.only === undefined && mailsFor(type);
  // An owner with no endpoint for it and no email keeps no event: nothing would ever read it.
  if (options.only === undefined && !mails && !await subscribed(db, owner, type)) return null;
  const id = newTimeOrderedId("evt", options.now);
  const doc: EventDocument = {
    id,
    object: "event",
    type,
    created: Math.floor(options.now.getTime() / 1000),
    owner,
    data,
  };
  const { written } = await insertEvent(db, owner, {
    id,
    type,
    payload: JSON.stringify(doc),
    dedupe: options.dedupe ?? null,
    now: options.now,
  }, options.only);
  if (!written) return null;
  if (mails) await queueEventMail(db, owner, { eventId: id, type, data, now: options.now });
  return id;
}
