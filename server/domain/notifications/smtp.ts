/**
 * nodemailer's SMTP transport. nodemailer (and @types/node for its types) is loaded only from
 * here, and this module only with a node's first message (sender.ts smtpTransport), so the start
 * does not fetch it (docs/decisions/operations.md, "What the start fetches"); scripts/compile.ts
 * includes it.
 */
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import type { MailTransport } from "./sender.ts";

/** The transport of `smtpUrl`, every wait bounded by `timeoutMs`. */
export function createSmtpTransport(smtpUrl: string, timeoutMs: number): MailTransport {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  }) as unknown as MailTransport;
}
