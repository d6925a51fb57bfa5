/**
 * Each node's webhook worker (docs/decisions/webhooks.md): every few seconds it sends the due
 * deliveries it can lease, and every minute it sweeps budgets for thresholds reached. Nothing a
 * request does waits on it; deliveries wait in the store until it comes round.
 */
import { newId } from "../../../store/ids.ts";
import type { AppDeps } from "../../deps.ts";
import { systemTimer, type Timer } from "../../platform/clock.ts";
import { drainDue } from "./delivery.ts";
import { sweepBudgets } from "./thresholds.ts";

/** A running worker. */
export interface WebhookWorker {
  stop(): Promise<void>;
}

/** Starts the worker; `stop()` abandons the attempts in flight and hands their deliveries back. */
export function startWebhookWorker(
  deps: AppDeps,
  opts: { pollMs?: number; sweepMs?: number; timer?: Timer } = {},
): WebhookWorker {
  const timer = opts.timer ?? systemTimer;
  const holder = newId("hooks");
  const stopping = new AbortController();
  const pollMs = opts.pollMs ?? 5_000;
  const sweepMs = opts.sweepMs ?? 60_000;
  let lastSweep = -Infinity;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        if (timer.now() - lastSweep >= sweepMs) {
          lastSweep = timer.now();
          await sweepBudgets(deps.store.db, { now: deps.clock.now() });
        }
        // A full batch means more may be due: go round again at once.
        while (
          await drainDue(deps, { holder, signal: stopping.signal }) >= 20 &&
          !stopping.signal.aborted
        );
      } catch (e) {
        if (!stopping.signal.aborted) deps.log.warn("webhooks: poll failed", { error: String(e) });
      }
      await timer.sleep(pollMs, stopping.signal).catch(() => {});
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
