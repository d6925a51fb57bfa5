/**
 * Turns for the event loop inside long background work. The embedded driver is synchronous and
 * its promises resolve as microtasks, so a loop of awaited store calls never lets a request in: a
 * 10 MB book's import held /api/health for 140-250 ms at a time (docs/decisions/storage.md,
 * "Processes and writers"). A macrotask costs 1-3 ms, so one is taken only once `budgetMs` of work
 * has passed since the last.
 *
 * The turn is one for the whole thread (`sharedTurn`), and every piece of background work joins a
 * turn another has begun. Deno's runtime reads sockets when it has nothing ready to run, or every
 * 61st task it runs (tokio's event interval): while one loop waited on its timer another was
 * ready, so the runtime never idled, and a request waited 150-210 ms behind turns that all fired
 * on time ("Turns that let sockets in" in docs/decisions/storage.md).
 */

let round: Promise<void> | null = null;

/** A macrotask turn shared by everything of this thread that takes one now. */
export function sharedTurn(): Promise<void> {
  return round ??= new Promise<void>((resolve) =>
    setTimeout(() => {
      round = null;
      resolve();
    }, 0)
  );
}

/** Whether a shared turn has begun: work that checks joins it, whatever its own budget. */
export function turnBegun(): boolean {
  return round !== null;
}

export function eventLoopTurns(
  budgetMs = 20,
  /** Monotonic milliseconds (store/ takes time in; tests pass their own). */
  now: () => number = () => performance.now(),
): () => Promise<void> {
  let last = now();
  return async () => {
    if (round === null && now() - last < budgetMs) return;
    await sharedTurn();
    last = now();
  };
}
