/**
 * Queuing email (docs/decisions/email.md): rows in the outbox, written in the caller's
 * transaction so an email exists exactly when what it tells of was committed; the mail worker
 * (worker.ts) sends them. One email per (event, recipient): the event id is the dedupe key.
 */
import type { Executor } from "../../../store/db.ts";
import { type MailOwner, queueMailTo, queueOwnerMail } from "../../../store/email_outbox.ts";
import { mailsFor } from "./templates.ts";

/** How long an event's email may wait for a sender before it is expired rather than sent late. */
export const EVENT_MAIL_TTL_MS = 3 * 86_400_000;

/** Queues the event's email to everyone who speaks for its owner; 0 for types that send none. */
export async function queueEventMail(
  db: Executor,
  owner: MailOwner,
  e: { eventId: string; type: string; data: Record<string, unknown>; now: Date },
): Promise<number> {
  if (!mailsFor(e.type)) return 0;
  return await queueOwnerMail(db, {
    dedupe: e.eventId,
    template: e.type,
    owner,
    data: e.data,
    now: e.now,
    expiresAt: new Date(e.now.getTime() + EVENT_MAIL_TTL_MS),
  });
}

/** Queues one email to one address (a password reset's link). */
export async function queueDirectMail(
  db: Executor,
  recipient: string,
  m: {
    dedupe: string;
    template: string;
    owner: MailOwner;
    data: Record<string, unknown>;
    now: Date;
    expiresAt: Date;
  },
): Promise<boolean> {
  return await queueMailTo(db, recipient, m);
}
