/**
 * The embedded store's client: libSQL's native binding (`libsql`, the very package the `file:`
 * client of @libsql/client wraps) with each connection's prepared statements kept. @libsql/client
 * prepares, describes and converts every statement on every call (about 160 µs for one publisher
 * row); a kept statement is only bound and stepped (about 26 µs). docs/decisions/storage.md, "The embedded client".
 *
 * Same contract as @libsql/client's `Client` for what Folio uses, with two narrowings: rows are
 * plain objects keyed by column name (no index access), and integers come back as numbers.
 * Autocommit statements and read batches share one connection: the driver is synchronous, so
 * nothing interleaves inside a call. Each interactive transaction borrows a connection of its own,
 * since it is held across awaits. Write batches and group commits run on a writer connection of
 * their own (`Writer`).
 */
import type { AutoCheckpointing } from "./checkpointer.ts";
import { setImmediate } from "node:timers";
import type {
  Client,
  InArgs,
  InStatement,
  InValue,
  ResultSet,
  Row,
  Transaction,
  TransactionMode,
} from "@libsql/client";
// The error classes @libsql/client re-exports, from the one small package that defines them.
import { LibsqlBatchError, LibsqlError } from "@libsql/core/api";
import {
  BatchFailure,
  commitGroup,
  Connection,
  inWrite,
  type NativeStmt,
  plain,
  type RawResult,
  runBatch as runNativeBatch,
  runBatchInStretches,
  sqliteCode,
  Stretches,
  TRANSACTION_CLOSED,
  WalIndexWatch,
  writeGeneration,
} from "./native_connection.ts";

/** Connections open at most for concurrent interactive transactions. */
const MAX_TRANSACTIONS = 8;

/** A result as @libsql/client hands it: with `toJSON`. */
function resultSet(r: RawResult): ResultSet {
  const { columns, columnTypes, rowsAffected, lastInsertRowid } = r;
  const rows = r.rows as Row[];
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({
      columns,
      columnTypes,
      rows,
      rowsAffected,
      lastInsertRowid: lastInsertRowid?.toString() ?? null,
    }),
  };
}

/** A statement in the driver's form: throws (TypeError, RangeError) on an argument it cannot store. */
function nativeStmt(s: InStatement | [string, InArgs?] | string): NativeStmt {
  if (typeof s === "string") return plain(s);
  if (Array.isArray(s)) return { sql: s[0], args: toNative(s[1]) };
  return { sql: s.sql, args: toNative(s.args) };
}

/** Runs `stmt` on `conn` with @libsql/client's errors. */
function exec(conn: Connection, stmt: InStatement | string): ResultSet {
  const native = nativeStmt(stmt);
  try {
    return resultSet(conn.execute(native));
  } catch (err) {
    throw mapError(err);
  }
}

function execMultiple(conn: Connection, sql: string): void {
  try {
    conn.executeMultiple(sql);
  } catch (err) {
    throw mapError(err);
  }
}

function toNative(args: InArgs | undefined): unknown {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(valueToNative);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    named[/^[@$:]/.test(name) ? name.slice(1) : name] = valueToNative(value);
  }
  return named;
}

function valueToNative(value: InValue): unknown {
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw new RangeError("Only finite numbers can be stored");
      return value;
    case "boolean":
      return value ? 1 : 0;
    case "undefined":
      throw new TypeError("undefined cannot be passed as argument to the database");
  }
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value instanceof Date) return value.valueOf();
  return value;
}

function mapError(err: unknown): unknown {
  const extended = err instanceof LibsqlError ? null : sqliteCode(err);
  if (extended === null) return err;
  const e = err as Error & { rawCode: unknown };
  // Extended codes name their base first: SQLITE_CONSTRAINT_UNIQUE is a SQLITE_CONSTRAINT.
  const base = extended.split("_").slice(0, 2).join("_");
  return new LibsqlError(e.message, base, extended, Number(e.rawCode), e);
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/** Runs `stmts` in the transaction open on `conn`, with @libsql/client's batch errors. */
function runBatch(conn: Connection, stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
  try {
    return runNativeBatch(conn, stmts.map(nativeStmt)).map(resultSet);
  } catch (err) {
    throw err instanceof BatchFailure ? batchError(err) : err;
  }
}

function batchError(f: BatchFailure): unknown {
  if (f.cause === TRANSACTION_CLOSED) {
    return new LibsqlBatchError(
      "The transaction has been rolled back",
      f.index,
      "TRANSACTION_CLOSED",
    );
  }
  const err = mapError(f.cause);
  if (!(err instanceof LibsqlError) || err instanceof LibsqlBatchError) return err;
  return new LibsqlBatchError(err.message, f.index, err.code, err.extendedCode, err.rawCode, err);
}

class EmbeddedTransaction implements Transaction {
  #conn: Connection | null;
  #release: (conn: Connection) => void;

  constructor(conn: Connection, release: (conn: Connection) => void) {
    this.#conn = conn;
    this.#release = release;
  }

  get closed(): boolean {
    return this.#conn === null || !this.#conn.db.open || !this.#conn.db.inTransaction;
  }

  execute(stmt: InStatement): Promise<ResultSet> {
    return attempt(() => exec(this.#open(), stmt));
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return attempt(() => runBatch(this.#open(), stmts));
  }

  executeMultiple(sql: string): Promise<void> {
    return attempt(() => execMultiple(this.#open(), sql));
  }

  rollback(): Promise<void> {
    return attempt(() => {
      try {
        if (!this.closed) exec(this.#conn!, "ROLLBACK");
      } finally {
        this.#settle();
      }
    });
  }

  commit(): Promise<void> {
    return attempt(() => {
      try {
        exec(this.#open(), "COMMIT");
      } finally {
        this.#settle();
      }
    });
  }

  close(): void {
    try {
      if (this.#conn?.db.open && this.#conn.db.inTransaction) exec(this.#conn, "ROLLBACK");
    } finally {
      this.#settle();
    }
  }

  #open(): Connection {
    if (this.closed) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    return this.#conn!;
  }

  #settle(): void {
    const conn = this.#conn;
    if (conn === null) return;
    this.#conn = null;
    this.#release(conn);
  }
}

/** Runs synchronous driver work as the async API promises it: throws become rejections. */
function attempt<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A client that can also commit several write batches at once (store/write_lock.ts groups them). */
export interface GroupingClient extends Client, CommitMarking, AutoCheckpointing {
  /** Each batch's results, or its error; rejects when the shared transaction itself fails. */
  batchGroup(groups: InStatement[][]): Promise<(ResultSet[] | Error)[]>;
}

/** A client that can tell, without a query, whether anything was committed since a mark. */
export interface CommitMarking {
  /**
   * The store's last commit as a mark (equal marks: nothing committed in between, by any
   * process), or null when it cannot say (read the store then).
   */
  commitMark(): Uint8Array | null;
  /**
   * The row `sql` (a single-row read) gave when read right after this client's last write
   * commit, if the store is still at `mark` (nothing committed since by anyone), else null. The
   * first call registers `sql`: the writer reads it after each of its commits from then on, so a
   * lookup that must know a version after every charge asks no query of its own.
   */
  readAfterCommit?(sql: string, mark: Uint8Array): Record<string, unknown> | null;
}

/** What the single-row reads registered with `readAfterCommit` gave right after a commit. */
interface AfterCommit {
  mark: Uint8Array;
  rows: Record<string, Record<string, unknown> | null>;
}

/**
 * The writer connection (no busy handler: `inWrite` retries BEGIN from the event loop): write
 * batches and group commits run on it, and right after each commit it reads what
 * `readAfterCommit` registered, between two looks at the commit mark (equal marks: nothing else
 * was committed meanwhile, so the rows are the store's at that mark). The writer has just
 * committed, so its page cache is warm and those reads cost a few microseconds, where the shared
 * connection, whose cache another connection's commit dropped, paid about 60 µs.
 */
class Writer {
  #conn: Connection | null = null;
  readonly #watch: WalIndexWatch;
  readonly #reads = new Set<string>();
  #after: AfterCommit | null = null;

  constructor(readonly path: string, readonly timeoutMs: number, private pages: number) {
    this.#watch = new WalIndexWatch(path);
  }

  async batch(stmts: NativeStmt[]): Promise<RawResult[]> {
    try {
      const out = await inWrite(
        this.#writer(),
        this.timeoutMs,
        (c) => runBatchInStretches(c, stmts, new Stretches()),
      );
      this.#readAfter();
      return out;
    } catch (err) {
      throw err instanceof BatchFailure ? batchError(err) : mapError(err);
    }
  }

  /** Each batch's results, or its error; rejects when the shared transaction itself fails. */
  async group(groups: NativeStmt[][]): Promise<(RawResult[] | Error)[]> {
    let outcomes: (RawResult[] | BatchFailure)[];
    try {
      outcomes = await commitGroup(this.#writer(), this.timeoutMs, groups);
    } catch (err) {
      throw mapError(err);
    }
    this.#readAfter();
    return outcomes.map((o) => o instanceof BatchFailure ? batchError(o) as Error : o);
  }

  /**
   * The row `sql` gave right after this writer's last commit if the store is still at `mark`,
   * else null; the first call registers `sql` for every commit after it.
   */
  readAfterCommit(sql: string, mark: Uint8Array): Record<string, unknown> | null {
    if (!this.#reads.has(sql)) {
      this.#reads.add(sql);
      return null;
    }
    const after = this.#after;
    if (after === null || !(sql in after.rows)) return null;
    for (let i = 0; i < mark.length; i++) if (after.mark[i] !== mark[i]) return null;
    return after.rows[sql];
  }

  setAutoCheckpoint(pages: number): void {
    this.pages = pages;
    this.#conn?.setAutoCheckpoint(pages);
  }

  close(): void {
    this.#watch.close();
    this.#conn?.close();
    this.#conn = null;
  }

  #writer(): Connection {
    try {
      return this.#conn ??= new Connection(this.path, 0, this.pages);
    } catch (err) {
      throw mapError(err);
    }
  }

  #readAfter(): void {
    this.#after = null;
    const conn = this.#conn;
    if (this.#reads.size === 0 || conn === null) return;
    const before = this.#watch.mark();
    if (before === null) return;
    const rows: AfterCommit["rows"] = {};
    try {
      for (const sql of this.#reads) rows[sql] = conn.execute({ sql, args: [] }).rows[0] ?? null;
    } catch {
      return; // the lookup reads the store itself
    }
    const after = this.#watch.mark();
    if (after === null || after.some((b, i) => b !== before[i])) return;
    this.#after = { mark: before, rows };
  }
}

/** An embedded client on the database file at `path`. */
export function createEmbeddedClient(
  path: string,
  options: { timeoutMs: number },
): GroupingClient {
  // SQLite's default, until a checkpoint thread takes the work (store/checkpointer.ts).
  let autoCheckpointPages = 1000;
  const open = () => {
    try {
      return new Connection(path, options.timeoutMs, autoCheckpointPages);
    } catch (err) {
      throw mapError(err);
    }
  };
  let shared: Connection | null = open();
  let idle: Connection[] = [];
  const lent = new Set<Connection>();
  let waiters: { resolve: (c: Connection) => void; reject: (e: unknown) => void }[] = [];
  let closed = false;

  const usable = (): Connection => {
    if (closed || shared === null) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    return shared;
  };
  const borrow = (): Promise<Connection> => {
    usable();
    const conn = idle.pop();
    if (conn) return Promise.resolve(lend(conn));
    if (lent.size < MAX_TRANSACTIONS) return Promise.resolve(lend(open()));
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  };
  const lend = (conn: Connection) => (lent.add(conn), conn);
  const giveBack = (conn: Connection) => {
    lent.delete(conn);
    try {
      conn.reset();
    } catch {
      conn.close(); // unusable: drop it rather than hand it on
      return;
    }
    if (closed) return conn.close();
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(lend(conn));
    else idle.push(conn);
  };
  /** Write batches and group commits run on the writer connection, opened on the first. */
  let writes = new Writer(path, options.timeoutMs, autoCheckpointPages);
  /** The batches in the driver's form; one whose arguments cannot be stored fails alone, here. */
  const toWrite = (stmts: Array<InStatement | [string, InArgs?]>): NativeStmt[] | Error => {
    try {
      return stmts.map(nativeStmt);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  const watch = new WalIndexWatch(path);
  /** The mark this turn looked at, and the write generation it was taken at. */
  let kept: Uint8Array | null = null;
  let keptAt = -1;
  const closeAll = () => {
    watch.close();
    shared?.close();
    shared = null;
    writes.close();
    for (const conn of [...idle, ...lent]) conn.close();
    idle = [];
    lent.clear();
    const pending = waiters;
    waiters = [];
    for (const w of pending) w.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
  };

  const client: GroupingClient = {
    get closed() {
      return closed;
    },
    protocol: "file",
    execute(stmt: InStatement | string, args?: InArgs) {
      return attempt(() =>
        exec(usable(), typeof stmt === "string" ? { sql: stmt, args: args ?? [] } : stmt)
      );
    },
    async batch(stmts, mode = "deferred") {
      if (mode === "write") {
        usable();
        const native = toWrite(stmts);
        if (native instanceof Error) throw native;
        return (await writes.batch(native)).map(resultSet);
      }
      return await attempt(() => {
        const conn = usable();
        exec(conn, BEGIN[mode]);
        try {
          const out = runBatch(conn, stmts);
          exec(conn, "COMMIT");
          return out;
        } finally {
          conn.reset();
        }
      });
    },
    async batchGroup(groups: InStatement[][]) {
      usable();
      const native = groups.map(toWrite);
      const valid = native.filter((n): n is NativeStmt[] => !(n instanceof Error));
      const done = valid.length === 0 ? [] : await writes.group(valid);
      let next = 0;
      return native.map((n) =>
        n instanceof Error ? n : ((r) => r instanceof Error ? r : r.map(resultSet))(done[next++])
      );
    },
    commitMark() {
      if (closed) return null;
      // One look at the header per turn of the event loop: the requests a turn handles share it
      // unless this thread wrote meanwhile (another process's commit is seen on the next turn,
      // as if it had come a moment later). Two syscalls a look were 5% of an anonymous read.
      if (kept !== null && keptAt === writeGeneration()) return kept;
      const mark = watch.mark();
      if (mark !== null) {
        if (kept === null) setImmediate(() => kept = null);
        kept = mark;
        keptAt = writeGeneration();
      }
      return mark;
    },
    readAfterCommit(sql: string, mark: Uint8Array) {
      return closed ? null : writes.readAfterCommit(sql, mark);
    },
    setAutoCheckpoint(pages: number) {
      autoCheckpointPages = pages;
      for (const conn of [shared, ...idle, ...lent]) conn?.setAutoCheckpoint(pages);
      writes.setAutoCheckpoint(pages);
    },
    migrate(stmts) {
      return attempt(() => {
        const conn = usable();
        exec(conn, "PRAGMA foreign_keys=off");
        try {
          exec(conn, BEGIN.deferred);
          const out = runBatch(conn, stmts);
          exec(conn, "COMMIT");
          return out;
        } finally {
          conn.reset();
          exec(conn, "PRAGMA foreign_keys=on");
        }
      });
    },
    async transaction(mode: TransactionMode = "write") {
      const conn = await borrow();
      try {
        exec(conn, BEGIN[mode]);
      } catch (err) {
        giveBack(conn);
        throw err;
      }
      return new EmbeddedTransaction(conn, giveBack);
    },
    executeMultiple(sql) {
      return attempt(() => {
        const conn = usable();
        try {
          execMultiple(conn, sql);
        } finally {
          conn.reset();
        }
      });
    },
    sync() {
      return Promise.resolve(undefined); // an embedded store has no replica to sync
    },
    reconnect() {
      closeAll();
      closed = false;
      shared = open();
      writes = new Writer(path, options.timeoutMs, autoCheckpointPages);
      return Promise.resolve();
    },
    close() {
      closed = true;
      closeAll();
    },
  };
  return client;
}
