/**
 * WAL checkpoints off the serving thread (issue 39, docs/decisions/storage.md). SQLite's automatic
 * checkpoint runs inside whichever commit takes the WAL past 1,000 pages: on the serving thread,
 * copying those pages into the database file and syncing it while every request waits (42 ms for
 * 863 pages on the loaded 2-core machine). A checkpoint thread (checkpoint_worker.ts) runs PASSIVE
 * checkpoints every `intervalMs` instead, and the store's own connections keep the automatic one
 * only as a bound (`SAFETY_PAGES`) should the thread fall behind or fail.
 */
import type { Client } from "./db.ts";
import type { CheckpointCommand } from "./checkpoint_worker.ts";

/** The automatic checkpoint's threshold while a thread checkpoints (about 64 MB of WAL). */
export const SAFETY_PAGES = 16_000;
/** SQLite's own default, restored when the thread stops. */
const DEFAULT_PAGES = 1_000;

/** A client whose connections' automatic checkpoint threshold can be set (store/embedded.ts). */
export interface AutoCheckpointing {
  setAutoCheckpoint(pages: number): void;
}

/** A running checkpoint thread. */
export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Starts a checkpoint thread for the embedded store at `path` (null for a remote store: its
 * server checkpoints), and raises `db`'s automatic threshold to `SAFETY_PAGES`.
 */
export function startCheckpointer(
  db: Client,
  path: string | null,
  options: { intervalMs?: number; restartPages?: number } = {},
): Checkpointer | null {
  const auto = db as Partial<AutoCheckpointing>;
  if (path === null || !auto.setAutoCheckpoint) return null;
  const worker = new Worker(new URL("./checkpoint_worker.ts", import.meta.url), {
    type: "module",
  });
  let alive = true;
  worker.onerror = (e) => {
    // A thread that fails leaves the automatic checkpoint to do its work, as before.
    e.preventDefault();
    alive = false;
    auto.setAutoCheckpoint!(DEFAULT_PAGES);
    worker.terminate();
  };
  worker.postMessage(
    {
      start: path,
      intervalMs: options.intervalMs ?? 200,
      restartPages: options.restartPages,
    } satisfies CheckpointCommand,
  );
  auto.setAutoCheckpoint(SAFETY_PAGES);
  return {
    async stop() {
      auto.setAutoCheckpoint!(DEFAULT_PAGES);
      if (!alive) return;
      alive = false;
      const stopped = new Promise<void>((resolve) => {
        worker.onmessage = () => resolve();
        setTimeout(resolve, 2000); // a stuck thread does not hold the shutdown
      });
      worker.postMessage({ stop: true } satisfies CheckpointCommand);
      await stopped;
      worker.terminate();
    },
  };
}
