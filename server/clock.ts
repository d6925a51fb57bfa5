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
  return at.toISOString().slice(0, 7);
}
