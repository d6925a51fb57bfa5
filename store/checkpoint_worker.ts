/**
 * The checkpoint thread (store/checkpointer.ts): its own connection to the store, running
 * SQLite's PASSIVE checkpoint on a timer, which copies committed WAL frames into the database
 * file and syncs it without blocking any reader or writer, so no serving thread waits for it.
 *
 * A PASSIVE checkpoint never starts the WAL over: SQLite rewinds it only when a writer finds every
 * frame copied, and under a stream of commits (a 10 MB book's import) one always lands between
 * the copy and the next write. The WAL then grew to the automatic checkpoint's bound and that
 * checkpoint ran inside a commit on the serving thread (90 ms; issue 39). Past `RESTART_PAGES`
 * this thread runs a RESTART checkpoint, tried here every millisecond until it finds a moment
 * between two commits (a writer's BEGIN meanwhile retries from its event loop); the next writer
 * then rewinds the WAL.
 */
import Database from "libsql";

/** WAL frames (pages) past which the thread makes the next writer start the WAL over (16 MB). */
export const RESTART_PAGES = 4_000;
/** Tries of a RESTART checkpoint, 1 ms apart, while a writer or reader of the moment holds it. */
const RESTART_TRIES = 200;

interface NativeDatabase {
  prepare(sql: string): { raw(on?: boolean): { all(): unknown[][] } };
  close(): void;
}

/**
 * What the thread is told: start on a file every `intervalMs` (a RESTART past `restartPages`
 * frames, RESTART_PAGES unless a test says), or stop.
 */
export type CheckpointCommand =
  | { start: string; intervalMs: number; restartPages?: number }
  | { stop: true };

let db: NativeDatabase | null = null;
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (e: MessageEvent<CheckpointCommand>) => {
  const command = e.data;
  if ("stop" in command) {
    clearInterval(timer);
    db?.close();
    db = null;
    self.postMessage("stopped");
    return;
  }
  db = new (Database as unknown as new (path: string, o: object) => NativeDatabase)(
    command.start,
    { timeout: 0 },
  );
  const passive = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").raw(true);
  const restart = db.prepare("PRAGMA wal_checkpoint(RESTART)").raw(true);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  // One row: whether it was blocked, the WAL's frames, the frames copied.
  const run = (stmt: typeof passive) => stmt.all()[0] as number[];
  const restarted = () => {
    try {
      return run(restart)[0] === 0;
    } catch {
      return false; // busy as an error rather than a row: try again
    }
  };
  timer = setInterval(() => {
    try {
      if (run(passive)[1] < (command.restartPages ?? RESTART_PAGES)) return;
      // Without a busy handler, polled every millisecond: SQLite's own sleeps 1 to 100 ms between
      // looks and so mostly misses the moments between two commits of a busy writer.
      for (let i = 0; i < RESTART_TRIES && !restarted(); i++) {
        Atomics.wait(pause, 0, 0, 1);
      }
    } catch {
      // Busy (another checkpoint, a restore's lock): the next turn tries again.
    }
  }, command.intervalMs);
};
