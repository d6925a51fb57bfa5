/**
 * Politeness and load limits for outbound requests: a per-host and a global semaphore, and a
 * minimum spacing between request starts to one host.
 */
import { systemTimer, type Timer } from "../../platform/clock.ts";
import { Gate } from "./gate.ts";

/** Limits shared by every request through one set of slots. */
export interface HostSlotLimits {
  perHostConcurrency: number;
  minHostIntervalMs: number;
  /** Global cap on requests in flight. */
  maxConcurrent: number;
  /** What the spacing is measured and waited on (default the system's); tests step a manual one. */
  timer?: Timer;
}

/** A held per-host and global slot; release it exactly once. */
export interface HostSlot {
  /** Wait for the host's next polite start again, so a retry on this slot stays spaced. */
  space(signal: AbortSignal): Promise<void>;
  release(): void;
}

/** Hands out slots per host name; one instance holds the queues for one fetcher. */
export interface HostSlots {
  enter(host: string, signal: AbortSignal): Promise<HostSlot>;
}

interface HostState {
  gate: Gate;
  nextStart: number;
}

/** Create the slots for one fetcher: host gates are made on demand and dropped when idle. */
export function createHostSlots(limits: HostSlotLimits): HostSlots {
  const global = new Gate(limits.maxConcurrent);
  const hosts = new Map<string, HostState>();
  const timer = limits.timer ?? systemTimer;

  async function space(state: HostState, signal: AbortSignal): Promise<void> {
    // Reserve the next start time synchronously so concurrent callers queue up behind it. Spacing
    // is a duration on the monotonic timer the sleeps run on, not business time (server/platform/clock.ts).
    const now = timer.now();
    const start = Math.max(now, state.nextStart);
    state.nextStart = start + limits.minHostIntervalMs;
    // Rounded up: a timer rounds a fractional delay down, and the spacing would fall short of
    // the interval by up to a millisecond (the politeness test caught 149.x ms under load).
    if (start > now) await timer.sleep(Math.ceil(start - now), signal);
  }

  return {
    async enter(host: string, signal: AbortSignal): Promise<HostSlot> {
      let h = hosts.get(host);
      if (!h) hosts.set(host, h = { gate: new Gate(limits.perHostConcurrency), nextStart: 0 });
      const state = h;
      await state.gate.acquire(signal);
      try {
        await space(state, signal);
        await global.acquire(signal);
      } catch (e) {
        state.gate.release();
        throw e;
      }
      return {
        space: (retrySignal) => space(state, retrySignal),
        release: () => {
          global.release();
          state.gate.release();
          if (state.gate.idle && state.nextStart <= timer.now()) hosts.delete(host);
        },
      };
    },
  };
}
