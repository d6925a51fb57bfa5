/**
 * A module loaded on first use, once: what only one optional path needs (an SDK behind a surface)
 * is imported with a computed specifier, which `deno run` does not follow, so the start neither
 * fetches nor loads it (docs/decisions/operations.md, "What the start fetches"). The caller passes
 * `() => import(specifier)`, since a specifier resolves against the module that imports it.
 */
import { sharedTurn } from "../../store/turns.ts";

/** Every module loaded on first use, for `preload()`. */
const loaders: (() => Promise<unknown>)[] = [];

/** `load()` once; a load that failed (a package that could not be fetched) is tried again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  const once = () =>
    loading ??= load().catch((err) => {
      loading = undefined;
      throw err;
    });
  loaders.push(once);
  return once;
}

/**
 * Loads every such module, one at a time with a turn between, starting `afterMs` after the server
 * answers: the start and its first requests do not wait for them, and the first MCP call after that
 * does not either (1.8 s on a cold cache). A load that fails is left to the first use, which tries
 * again and answers the error. `stop()` cancels what has not begun and waits for what has.
 */
export function preload(afterMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let wake: () => void = () => {};
  const timer = setTimeout(() => wake(), afterMs);
  const done = (async () => {
    await new Promise<void>((resolve) => wake = resolve);
    for (const load of loaders) {
      if (stopped) return;
      await load().catch(() => {});
      await sharedTurn();
    }
  })();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
      await done;
    },
  };
}
