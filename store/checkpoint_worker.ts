/**
 * The checkpoint thread (store/checkpointer.ts): its own connection to the store, running
 * SQLite's PASSIVE checkpoint on a timer, which copies committed WAL frames into the database
 * file and syncs it without blocking any reader or writer, so no serving thread waits for it.
 */
import Database from "libsql";

interface NativeDatabase {
  prepare(sql: string): { raw(on?: boolean): { all(): unknown[][] } };
  close(): void;
}

/** What the thread is told: start on a file every `intervalMs`, or stop. */
export type CheckpointCommand = { start: string; intervalMs: number } | { stop: true };

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
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").raw(true);
  timer = setInterval(() => {
    try {
      checkpoint.all();
    } catch {
      // Busy (another checkpoint, a restore's lock): the next turn tries again.
    }
  }, command.intervalMs);
};
