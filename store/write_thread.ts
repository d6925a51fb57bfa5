/**
 * The embedded store's writes on a thread of their own (issue 39, docs/decisions/storage.md,
 * "Writes on their own thread"). The driver is synchronous: a charged read's group commit (its
 * savepoint, spend update, ledger row and COMMIT) held the serving thread for about a third of the
 * read's CPU. The write thread (write_worker.ts) owns the writer connection and runs each write
 * batch and group commit there; the serving thread posts the statements and goes on serving, and
 * a batch is answered only after its commit, as before. Reads, interactive transactions and
 * autocommit statements stay on the serving thread's connections.
 */
import { LibsqlBatchError, LibsqlError } from "@libsql/client";
import type { NativeStmt, RawResult } from "./native_connection.ts";
import type {
  AfterCommit,
  GroupOutcome,
  WireError,
  WriteAnswer,
  WriteCommand,
} from "./write_worker.ts";

type Body = WriteCommand extends infer C ? C extends unknown ? Omit<C, "id"> : never : never;

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The write thread of one embedded client, started on its first write. */
export class WriteThread {
  #worker: Worker | null = null;
  #waiting = new Map<number, Waiting>();
  #next = 0;
  #pages: number;
  #afterCommitReads = new Set<string>();
  /** The registered reads as of this client's last commit. */
  #after: AfterCommit | null = null;

  constructor(readonly path: string, readonly timeoutMs: number, autoCheckpointPages: number) {
    this.#pages = autoCheckpointPages;
  }

  /** Runs `stmts` as one write transaction; rejects with the error the batch had. */
  async batch(stmts: NativeStmt[]): Promise<RawResult[]> {
    return await this.#ask({ batch: stmts }) as RawResult[];
  }

  /** Commits the batches together, each under its own savepoint: each one's results or error. */
  async group(groups: NativeStmt[][]): Promise<(RawResult[] | Error)[]> {
    const outcomes = await this.#ask({ group: groups }) as GroupOutcome[];
    return outcomes.map((o) => "failed" in o ? toError(o.failed) : o);
  }

  setAutoCheckpoint(pages: number): void {
    this.#pages = pages;
    if (this.#worker) this.#ask({ autoCheckpoint: pages }).catch(() => {});
  }

  /**
   * The row `sql` gave right after this thread's last commit if the store is still at `mark`,
   * else null; the first call registers `sql` for every commit after it.
   */
  readAfterCommit(sql: string, mark: Uint8Array): Record<string, unknown> | null {
    if (!this.#afterCommitReads.has(sql)) {
      this.#afterCommitReads.add(sql);
      if (this.#worker) this.#ask({ readAfterCommit: sql }).catch(() => {});
      return null;
    }
    const after = this.#after;
    if (after === null || !(sql in after.rows)) return null;
    const m = after.mark;
    for (let i = 0; i < m.length; i++) if (m[i] !== mark[i]) return null;
    return after.rows[sql];
  }

  /** Makes the thread fail as a fault in it would (tests: its writes must not hang). */
  crashForTest(): void {
    this.#thread().postMessage({ id: this.#next++, crash: true } satisfies WriteCommand);
  }

  /** Closes the writer connection once what was asked before is answered, then ends the thread. */
  close(): void {
    const worker = this.#worker;
    if (worker === null) return;
    this.#worker = null;
    const id = this.#next++;
    this.#waiting.set(id, { resolve: () => worker.terminate(), reject: () => worker.terminate() });
    worker.postMessage({ id, close: true } satisfies WriteCommand);
  }

  #ask(body: Body): Promise<unknown> {
    const worker = this.#thread();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...body } as WriteCommand);
    });
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./write_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<WriteAnswer>) => {
      const answer = e.data;
      const w = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if ("failed" in answer) return w?.reject(toError(answer.failed));
      // Answers arrive in order: the last commit's reads replace any before.
      if (answer.after) this.#after = answer.after;
      w?.resolve(answer.ok);
    };
    const failed = (e: Event) => {
      // Only a fault in the thread's own code lands here (SQLite's errors are answers). What it
      // was running may or may not have committed; say so rather than guess.
      e.preventDefault();
      if (this.#worker === worker) this.#worker = null;
      worker.terminate();
      const lost = this.#waiting;
      this.#waiting = new Map();
      const err = new LibsqlError(
        "The write thread failed; the write may or may not have been committed",
        "WRITE_THREAD_FAILED",
      );
      for (const w of lost.values()) w.reject(err);
    };
    worker.onerror = failed;
    worker.onmessageerror = failed;
    const id = this.#next++;
    this.#waiting.set(id, { resolve: () => {}, reject: () => {} });
    worker.postMessage(
      {
        id,
        open: { path: this.path, timeoutMs: this.timeoutMs, autoCheckpointPages: this.#pages },
      } satisfies WriteCommand,
    );
    this.#worker = worker;
    for (const sql of this.#afterCommitReads) this.#ask({ readAfterCommit: sql }).catch(() => {});
    return worker;
  }
}

/** The error as @libsql/client would have thrown it on this thread. */
function toError(w: WireError): Error {
  const err = w.code === null ? plainError(w) : sqliteError(w);
  if (w.index === undefined) return err;
  if (w.rolledBack) {
    return new LibsqlBatchError(w.message, w.index, "TRANSACTION_CLOSED");
  }
  if (!(err instanceof LibsqlError)) return err;
  return new LibsqlBatchError(
    err.message,
    w.index,
    err.code,
    err.extendedCode,
    err.rawCode,
    err,
  );
}

// Extended codes name their base first: SQLITE_CONSTRAINT_UNIQUE is a SQLITE_CONSTRAINT.
function sqliteError(w: WireError): LibsqlError {
  const extended = w.code!;
  const base = extended.split("_").slice(0, 2).join("_");
  return new LibsqlError(w.message, base, extended, w.rawCode ?? undefined);
}

const KINDS: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError };

function plainError(w: WireError): Error {
  const err = new (KINDS[w.name] ?? Error)(w.message);
  if (!(w.name in KINDS) && w.name !== "Error") err.name = w.name;
  return err;
}
