/**
 * The write thread (write_thread.ts): the embedded store's writer connection, on which write
 * batches and group commits run, so the SQLite work of a write (a charged read's ledger row, the
 * spend it raises, the commit) is done beside the serving thread instead of on it. Commands run
 * one at a time, in the order they arrive; each is answered only after its commit.
 */
import {
  BatchFailure,
  commitGroup,
  Connection,
  inWrite,
  type NativeStmt,
  type RawResult,
  runBatch,
  sqliteCode,
  TRANSACTION_CLOSED,
  WalIndexWatch,
} from "./native_connection.ts";

/** What the thread is asked; `id` names the answer. */
export type WriteCommand =
  & { id: number }
  & (
    | { open: { path: string; timeoutMs: number; autoCheckpointPages: number } }
    | { batch: NativeStmt[] }
    | { group: NativeStmt[][] }
    | { autoCheckpoint: number }
    | { readAfterCommit: string }
    | { close: true }
    | { crash: true }
  );

/** An error as data: the driver's code when it is SQLite's, else its class name. */
export interface WireError {
  name: string;
  message: string;
  code: string | null;
  rawCode: number | null;
  /** Set when a batch's statement failed: which one, and whether SQLite had rolled it back. */
  index?: number;
  rolledBack?: boolean;
}

/** A group's batch: its results or its failure. */
export type GroupOutcome = RawResult[] | { failed: WireError };

/** What the reads registered with `readAfterCommit` gave right after a commit, at `mark`. */
export interface AfterCommit {
  mark: Uint8Array;
  rows: Record<string, Record<string, unknown> | null>;
}

/** The answer to command `id`; a commit's answer carries its after-commit reads. */
export type WriteAnswer =
  | { id: number; ok: unknown; after?: AfterCommit }
  | { id: number; failed: WireError };

let conn: Connection | null = null;
let watch: WalIndexWatch | null = null;
let openFailed: unknown = null;
let timeoutMs = 0;
let tail: Promise<void> = Promise.resolve();
/** Single-row reads to take after each commit (store/config_cache.ts registers its versions). */
const afterCommitReads = new Set<string>();

self.onmessage = (e: MessageEvent<WriteCommand>) => {
  const command = e.data;
  // Tests: a fault in the thread's own code, as an uncaught throw is.
  if ("crash" in command) throw new Error("The write thread crashed (a test asked it to)");
  tail = tail.then(async () => {
    try {
      const ok = await answer(command);
      const after = "batch" in command || "group" in command ? readAfter() : undefined;
      self.postMessage({ id: command.id, ok, after } satisfies WriteAnswer);
    } catch (err) {
      self.postMessage({ id: command.id, failed: wire(err) } satisfies WriteAnswer);
    }
  });
};

/**
 * The registered reads, taken between two looks at the commit mark: equal marks mean nothing was
 * committed meanwhile, so the rows are the store's at that mark (else nothing is reported). The
 * writer has just committed, so its page cache is warm and the reads cost a few microseconds.
 */
function readAfter(): AfterCommit | undefined {
  if (afterCommitReads.size === 0 || conn === null || watch === null) return undefined;
  const before = watch.mark();
  if (before === null) return undefined;
  const rows: AfterCommit["rows"] = {};
  try {
    for (const sql of afterCommitReads) rows[sql] = conn.execute({ sql, args: [] }).rows[0] ?? null;
  } catch {
    return undefined; // the lookup reads the store itself
  }
  const after = watch.mark();
  if (after === null || after.some((b, i) => b !== before[i])) return undefined;
  return { mark: before, rows };
}

async function answer(command: WriteCommand): Promise<unknown> {
  if ("open" in command) {
    const o = command.open;
    timeoutMs = o.timeoutMs;
    try {
      // No busy handler: inWrite retries BEGIN from the event loop instead.
      conn = new Connection(o.path, 0, o.autoCheckpointPages);
      watch = new WalIndexWatch(o.path);
    } catch (err) {
      openFailed = err; // every write after answers it
    }
    return null;
  }
  if ("close" in command) {
    watch?.close();
    watch = null;
    conn?.close();
    conn = null;
    return null;
  }
  if ("readAfterCommit" in command) return afterCommitReads.add(command.readAfterCommit), null;
  const c = conn;
  if (c === null) throw openFailed ?? new Error("The client is closed");
  if ("autoCheckpoint" in command) return c.setAutoCheckpoint(command.autoCheckpoint);
  if ("batch" in command) return await inWrite(c, timeoutMs, (c) => runBatch(c, command.batch));
  if ("crash" in command) return null; // thrown in onmessage, before it gets here
  const outcomes = await commitGroup(c, timeoutMs, command.group);
  return outcomes.map((o): GroupOutcome => o instanceof BatchFailure ? { failed: wire(o) } : o);
}

function wire(err: unknown): WireError {
  if (err instanceof BatchFailure) {
    const cause = err.cause === TRANSACTION_CLOSED
      ? { ...wire(new Error("The transaction has been rolled back")), rolledBack: true }
      : wire(err.cause);
    return { ...cause, index: err.index };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  const code = sqliteCode(e);
  const rawCode = code === null ? null : Number((e as { rawCode?: unknown }).rawCode);
  return { name: e.name, message: e.message, code, rawCode };
}
