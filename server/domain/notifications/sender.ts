/**
 * Sending the outbox (docs/decisions/email.md): each node's mail worker leases due rows
 * (store/email_outbox.ts claimDueMail), renders them and hands them to the SMTP server of
 * FOLIO_SMTP_URL through nodemailer. An accepted message is sent; a 5xx answer to the recipient or
 * the message fails it for good; anything else is retried on the webhooks' schedule until the row
 * expires. The Message-ID is the row's, so the rare resend after a crash between the server's
 * accept and our record carries the same id and receivers can tell it is the same message.
 */
import {
  claimDueMail,
  type ClaimedMail,
  recordMailAttempt,
  releaseMailLease,
} from "../../../store/email_outbox.ts";
import type { AppDeps } from "../../deps.ts";
import type { MailConfig } from "../../platform/config.ts";
import { nextAttemptAt } from "../webhooks/delivery.ts";
import { renderMail } from "./templates.ts";
import { loadOnce } from "../../platform/lazy.ts";

/** How long the SMTP server has to greet, and to answer each command. */
export const SMTP_TIMEOUT_MS = 15_000;

/** What sends one message: nodemailer's SMTP transport, or anything with its shape. */
export interface MailTransport {
  sendMail(m: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
  }): Promise<{ messageId: string }>;
  close(): void;
}

// nodemailer loads with a node's first message, not at start (docs/decisions/operations.md,
// "What the start fetches").
const SMTP = ["./smtp", "ts"].join(".");
const smtp = loadOnce((): Promise<typeof import("./smtp.ts")> => import(SMTP));

/** The SMTP transport of a mail configuration (nodemailer's, made on the first message). */
export function smtpTransport(mail: MailConfig): MailTransport {
  let transport: Promise<MailTransport> | undefined;
  const made = () =>
    transport ??= smtp().then((m) => m.createSmtpTransport(mail.smtpUrl, SMTP_TIMEOUT_MS));
  return {
    sendMail: async (m) => await (await made()).sendMail(m),
    close: () => void transport?.then((t) => t.close(), () => {}),
  };
}

/** Options of one drain: who holds the leases, how many at once, and the transport. */
export interface MailDrainOptions {
  holder: string;
  transport: MailTransport;
  limit?: number;
  /** Shutdown: rows not yet handed to the server go back to the queue. */
  signal?: AbortSignal;
}

/** Sends every due email this node can lease; answers how many it tried. */
export async function drainMail(deps: AppDeps, opts: MailDrainOptions): Promise<number> {
  const mail = deps.config.mail;
  if (!mail) return 0;
  const claimed = await claimDueMail(deps.store.db, {
    holder: opts.holder,
    now: deps.clock.now(),
    // The lease outlives a send's timeouts, so no other node sends it meanwhile.
    leaseMs: 4 * SMTP_TIMEOUT_MS + 60_000,
    limit: opts.limit ?? 20,
  });
  // One at a time: a small SMTP relay is not flooded, and a shutdown stops between messages.
  for (const m of claimed) {
    if (opts.signal?.aborted) await releaseMailLease(deps.store.db, m.id, opts.holder);
    else await sendOne(deps, mail, m, opts);
  }
  return claimed.length;
}

async function sendOne(
  deps: AppDeps,
  mail: MailConfig,
  m: ClaimedMail,
  opts: MailDrainOptions,
): Promise<void> {
  const db = deps.store.db;
  let messageId: string | null = null;
  let error: string | null = null;
  let permanent = false;
  try {
    const body = renderMail(m.template, m.data, { to: m.ownerKind, baseUrl: deps.config.baseUrl });
    const host = new URL(deps.config.baseUrl).hostname;
    const sent = await opts.transport.sendMail({
      from: mail.from,
      to: m.recipient,
      ...body,
      messageId: `<${m.id}@${host}>`,
    });
    messageId = sent.messageId;
  } catch (e) {
    // Only the message's own refusal is final (the recipient or the content refused with 5xx);
    // a wrong password or a server refusing us is this node's problem, and fixed by retrying.
    const { code, responseCode } = e as { code?: string; responseCode?: number };
    permanent = (code === "EENVELOPE" || code === "EMESSAGE") &&
        typeof responseCode === "number" && responseCode >= 500 && responseCode <= 599 ||
      String(e).includes("no email template");
    error = String((e as Error).message ?? e).slice(0, 300);
    deps.log.warn("email: send failed", { emailId: m.id, error });
  }
  const now = deps.clock.now();
  const next = messageId || permanent ? null : nextAttemptAt(m.attempts + 1, now);
  await recordMailAttempt(db, {
    id: m.id,
    holder: opts.holder,
    state: messageId ? "sent" : next === null ? "failed" : "pending",
    nextAttemptAt: next,
    error,
    messageId,
    at: now.getTime(),
  });
}
