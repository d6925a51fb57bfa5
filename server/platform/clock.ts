/** Time: the one place that reads the system clock, so tests can move it. */

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests set and advance. */
export interface ManualClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

/** A clock that stays where it is put. */
export function manualClock(start: Date | string = "2026-11-15T12:00:00Z"): ManualClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (at) => void (t = new Date(at).getTime()),
    advance: (ms) => void (t += ms),
  };
}

/** The UTC billing month of an instant, as "YYYY-MM". */
export function monthOf(at: Date): string {
  // Several calls per read: the two UTC fields, not a whole ISO string.
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + 1;
  if (y < 0 || y > 9999 || Number.isNaN(y)) return at.toISOString().slice(0, 7);
  return `${String(y).padStart(4, "0")}-${m < 10 ? "0" : ""}${m}`;
}

/**
 * Waits for durations (request spacing, idle loops), on a monotonic scale apart from business
 * time, so tests step them instead of sleeping and asserting on how long a wait took.
 */
export interface Timer {
  /** Milliseconds on a monotonic scale; only differences mean anything. */
  now(): number;
  /** Resolves once `ms` have passed on this timer, or rejects with the signal's reason first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real timer: performance.now() and setTimeout. */
export const systemTimer: Timer = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** A timer that moves only when a test advances it, and shows who is waiting on it. */
export interface ManualTimer extends Timer {
  /** The due times of the sleeps not yet ended, earliest first. */
  pending(): number[];
  /** Resolves once at least `count` sleeps are pending: the code has reached its waits. */
  sleeping(count?: number): Promise<void>;
  /** Moves the timer on by `ms`, ending every sleep that falls due. */
  advance(ms: number): void;
}

/** A manual timer starting at `start` milliseconds. */
export function manualTimer(start = 0): ManualTimer {
  let t = start;
  const sleeps = new Set<{ due: number; wake: () => void }>();
  const watchers = new Set<{ count: number; resolve: () => void }>();
  const notify = () => {
    for (const w of watchers) if (sleeps.size >= w.count) (watchers.delete(w), w.resolve());
  };
  return {
    now: () => t,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const entry = {
          due: t + Math.max(0, ms),
          wake: () => (signal?.removeEventListener("abort", onAbort), resolve()),
        };
        const onAbort = () => (sleeps.delete(entry), reject(signal!.reason));
        signal?.addEventListener("abort", onAbort, { once: true });
        sleeps.add(entry);
        notify();
      }),
    pending: () => [...sleeps].map((s) => s.due).sort((a, b) => a - b),
    sleeping: (count = 1) =>
      new Promise((resolve) => {
        watchers.add({ count, resolve });
        notify();
      }),
    advance(ms) {
      t += ms;
      for (const s of [...sleeps].sort((a, b) => a.due - b.due)) {
        if (s.due <= t) (sleeps.delete(s), s.wake());
      }
    },
  };
}
