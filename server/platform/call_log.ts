/**
 * The call log writer. Requests hand calls to `record()` and reader intents to `recordIntent()`,
 * which only append to a buffer; a timer writes the buffer in one batch, so logging adds no write
 * to a request's critical path (an intent insert was 14% of an OBSERVE read, docs/decisions/platform.md). `close()` writes what is left, so graceful shutdown loses nothing; `flush()`
 * gives this process read-your-writes before it lists them.
 */
import { type CallEntry, insertCalls } from "../../store/call_log.ts";
import type { IntentEntry } from "../../store/intents.ts";
import type { Client } from "../../store/db.ts";
import type { Logger } from "./log.ts";

export type { CallEntry } from "../../store/call_log.ts";
export type { IntentEntry } from "../../store/intents.ts";

/** Buffered, batched call logging. */
export interface CallLog {
  record(entry: CallEntry): void;
  recordIntent(entry: IntentEntry): void;
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
  let buffer: (CallEntry | { intent: IntentEntry })[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const flush = (): Promise<void> => {
    // Chain writes so batches land in order and a flush waits for the one in flight.
    writing = writing.then(async () => {
      while (buffer.length > 0) {
        const batch = buffer.slice(0, maxBatch);
        try {
          const calls: CallEntry[] = [];
          const intents: IntentEntry[] = [];
          for (const e of batch) "intent" in e ? intents.push(e.intent) : calls.push(e);
          await insertCalls(db, calls, intents);
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

  const add = (item: CallEntry | { intent: IntentEntry }) => {
    if (buffer.length >= maxBuffered) {
      // The store is unreachable for long: keep the newest entries rather than grow unbounded.
      buffer.shift();
    }
    buffer.push(item);
    if (buffer.length >= maxBatch) void flush();
    else schedule();
  };

  return {
    record: (entry) => add(entry),
    recordIntent: (intent) => add({ intent }),
    flush,
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
