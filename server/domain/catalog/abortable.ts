/**
 * Waits that give up as soon as a signal aborts, so no listener outlives its call (timed waits:
 * server/platform/clock.ts's Timer).
 */

/** Settle with `p`, or reject with the signal's reason when it aborts first. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
