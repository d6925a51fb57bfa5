/**
 * The call log writer. Requests hand entries to `record()`, which only appends to a buffer; a
 * timer writes the buffer in one batch, so logging adds no write to a request's critical path.
 * `close()` writes what is left, so graceful shutdown loses nothing.
 */
import { type CallEntry, insertCalls } from "../store/call_log.ts";
import type { Client } from "../store/db.ts";
import type { Logger } from "./log.ts";

export type { CallEntry } from "../store/call_log.ts";

/** Buffered, batched call logging. */
export interface CallLog {
  record(entry: CallEntry): void;
  /** Writes everything buffered so far. */
  flush(): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

/** A call log that writes at most every `intervalMs`, or sooner once `maxBatch` entries wait. */
export function createCallLog(
  db: Client,
  options: { log: Logger; intervalMs?: number; maxBatch?: number; maxBuffered?: number },
): CallLog {
  const intervalMs = options.intervalMs ?? 250;
  const maxBatch = options.maxBatch ?? 500;
  const maxBuffered = options.maxBuffered ?? 50_000;
  let buffer: CallEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const flush = (): Promise<void> => {
    // Chain writes so batches land in order and a flush waits for the one in flight.
    writing = writing.then(async () => {
      while (buffer.length > 0) {
        const batch = buffer.slice(0, maxBatch);
        try {
          await insertCalls(db, batch);
          buffer = buffer.slice(batch.length);
        } catch (err) {
          options.log.error("Call log write failed; will retry", { error: String(err) });
          return;
        }
      }
    });
    return writing;
  };
  const schedule = () => {
    if (timer !== undefined || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().then(() => buffer.length > 0 && schedule());
    }, intervalMs);
  };

  return {
    record(entry) {
      if (buffer.length >= maxBuffered) {
        // The store is unreachable for long: keep the newest entries rather than grow unbounded.
        buffer.shift();
      }
      buffer.push(entry);
      if (buffer.length >= maxBatch) void flush();
      else schedule();
    },
    flush,
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
