/**
 * Turns for the event loop inside long loops over the store. The embedded driver is synchronous
 * and its promises resolve as microtasks, so a loop of awaited store calls never lets a request
 * in: a 10 MB book's import held /api/health for 140-250 ms at a time (docs/decisions/storage.md,
 * "Processes and writers"). A macrotask costs 1-3 ms, so one is taken only once `budgetMs` of work
 * has passed since the last.
 */
export function eventLoopTurns(
  budgetMs = 20,
  /** Monotonic milliseconds (store/ takes time in; tests pass their own). */
  now: () => number = () => performance.now(),
): () => Promise<void> {
  let last = now();
  return async () => {
    if (now() - last < budgetMs) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    last = now();
  };
}
