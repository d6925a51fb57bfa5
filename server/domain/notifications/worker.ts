/**
 * Each node's mail worker (docs/decisions/email.md): every few seconds it sends the due emails it
 * can lease. It runs only where FOLIO_SMTP_URL is set; with email off the outbox keeps its rows
 * until they expire. Nothing a request does waits on it.
 */
import { newId } from "../../../store/ids.ts";
import type { AppDeps } from "../../deps.ts";
import { systemTimer, type Timer } from "../../platform/clock.ts";
import { drainMail, type MailTransport, smtpTransport } from "./sender.ts";

/** A running worker. */
export interface MailWorker {
  stop(): Promise<void>;
}

/** Starts the worker, or answers null when email is off on this node. */
export function startMailWorker(
  deps: AppDeps,
  opts: { pollMs?: number; timer?: Timer; transport?: MailTransport } = {},
): MailWorker | null {
  if (!deps.config.mail) return null;
  const timer = opts.timer ?? systemTimer;
  const transport = opts.transport ?? smtpTransport(deps.config.mail);
  const holder = newId("mail");
  const stopping = new AbortController();
  const pollMs = opts.pollMs ?? 2_000;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        // A full batch means more may be due: go round again at once.
        while (
          await drainMail(deps, { holder, transport, signal: stopping.signal }) >= 20 &&
          !stopping.signal.aborted
        );
      } catch (e) {
        if (!stopping.signal.aborted) deps.log.warn("email: poll failed", { error: String(e) });
      }
      await timer.sleep(pollMs, stopping.signal).catch(() => {});
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
      transport.close();
    },
  };
}
