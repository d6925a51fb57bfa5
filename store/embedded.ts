/**
 * The embedded store's client: libSQL's native binding (`libsql`, the very package the `file:`
 * client of @libsql/client wraps) with each connection's prepared statements kept. @libsql/client
 * prepares, describes and converts every statement on every call (about 160 µs for one publisher
 * row); a kept statement is only bound and stepped (about 26 µs). docs/decisions/storage.md, "The embedded client".
 *
 * Same contract as @libsql/client's `Client` for what Folio uses, with two narrowings: rows are
 * plain objects keyed by column name (no index access), and integers come back as numbers.
 * Autocommit statements and batches share one connection: the driver is synchronous, so nothing
 * interleaves inside a call. Each interactive transaction borrows a connection of its own, since it
 * is held across awaits.
 */
import { BoundedCache } from "./bounded_cache.ts";
import type { AutoCheckpointing } from "./checkpointer.ts";
import {
  type Client,
  type InArgs,
  type InStatement,
  type InValue,
  LibsqlBatchError,
  LibsqlError,
  type ResultSet,
  type Row,
  type Transaction,
  type TransactionMode,
} from "@libsql/client";
import Database from "libsql";
import { setImmediate } from "node:timers";

/** The part of libsql's Statement this client uses. */
interface NativeStatement {
  raw(on?: boolean): NativeStatement;
  readonly reader: boolean;
  columns(): { name: string; type: string | null }[];
  all(args: unknown): unknown[][];
  run(args: unknown): { changes: number; lastInsertRowid: number | bigint };
}
interface NativeDatabase {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
}
const NativeDb = Database as unknown as new (
  path: string,
  options: { timeout: number },
) => NativeDatabase;

/** A kept statement and what describing it once told us. */
interface Prepared {
  stmt: NativeStatement;
  reader: boolean;
  columns: string[];
  columnTypes: string[];
  // Index of each distinct column name's first occurrence (a join's repeated `id` keeps the first).
  keep: number[];
}

/** Statements kept per connection; the oldest goes first once dynamic SQL (IN lists) fills it. */
const MAX_KEPT = 500;
/** Connections open at most for concurrent interactive transactions. */
const MAX_TRANSACTIONS = 8;

/** One connection with its kept statements. */
class Connection {
  readonly db: NativeDatabase;
  #kept = new BoundedCache<string, Prepared>(MAX_KEPT);

  constructor(path: string, timeoutMs: number, autoCheckpointPages: number) {
    try {
      this.db = new NativeDb(path, { timeout: timeoutMs });
      // NORMAL in WAL mode loses no committed transaction on a process crash, only on power
      // loss; it is per connection, so every connection sets it (FULL fsyncs every commit).
      this.db.exec("PRAGMA synchronous=NORMAL");
      this.setAutoCheckpoint(autoCheckpointPages);
    } catch (err) {
      throw mapError(err);
    }
  }

  execute(stmt: InStatement): ResultSet {
    const { sql, args } = typeof stmt === "string" ? { sql: stmt, args: undefined } : stmt;
    const prepared = this.#prepare(sql);
    try {
      return run(prepared, toNative(args));
    } catch (err) {
      // A reader that failed mid-step is not reused: prepare it afresh next time. A writer is
      // kept: run() resets it before stepping again, and a dropped one left un-reset (a BEGIN
      // refused as busy) would count as a statement in progress and refuse the next COMMIT.
      if (prepared.reader) this.#kept.delete(sql);
      throw mapError(err);
    }
  }

  /** The WAL size (pages) past which a commit on this connection checkpoints (checkpointer.ts). */
  setAutoCheckpoint(pages: number): void {
    this.db.exec(`PRAGMA wal_autocheckpoint=${Math.trunc(pages)}`);
  }

  executeMultiple(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (err) {
      throw mapError(err);
    }
  }

  /** Rolls back whatever a failed caller left open, so the connection is clean for the next. */
  reset(): void {
    if (this.db.open && this.db.inTransaction) this.db.exec("ROLLBACK");
  }

  close(): void {
    this.#kept.clear();
    if (this.db.open) this.db.close();
  }

  #prepare(sql: string): Prepared {
    const hit = this.#kept.get(sql);
    if (hit) return hit;
    let stmt: NativeStatement;
    try {
      stmt = this.db.prepare(sql);
    } catch (err) {
      throw mapError(err);
    }
    const reader = stmt.reader;
    const described = reader ? stmt.raw(true).columns() : [];
    const columns = described.map((c) => c.name);
    const seen = new Set<string>();
    const keep = columns.flatMap((name, i) => seen.has(name) ? [] : (seen.add(name), [i]));
    const prepared = {
      stmt,
      reader,
      columns,
      columnTypes: described.map((c) => c.type ?? ""),
      keep,
    };
    this.#kept.set(sql, prepared);
    return prepared;
  }
}

// Reads step to the end (all()), which also ends the statement's implicit read transaction: a
// kept statement left mid-result would pin its snapshot and the connection would read stale data.
function run(p: Prepared, args: unknown): ResultSet {
  if (!p.reader) {
    const info = p.stmt.run(args);
    return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
  }
  const raw = p.stmt.all(args);
  const rows = new Array<Row>(raw.length);
  for (let r = 0; r < raw.length; r++) {
    const values = raw[r];
    const row: Record<string, unknown> = {};
    for (const i of p.keep) row[p.columns[i]] = fromNative(values[i]);
    rows[r] = row as Row;
  }
  return resultSet(p.columns, p.columnTypes, rows, 0, undefined);
}

function resultSet(
  columns: string[],
  columnTypes: string[],
  rows: Row[],
  rowsAffected: number,
  lastInsertRowid: bigint | undefined,
): ResultSet {
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

// Blobs arrive as Node Buffers; Folio reads them as ArrayBuffers (as @libsql/client hands them).
function fromNative(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
      ? value.buffer
      : value.slice().buffer;
  }
  return value;
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
  if (err instanceof LibsqlError || !(err instanceof Error) || !("rawCode" in err)) return err;
  const extended = String((err as { code?: unknown }).code ?? "SQLITE_UNKNOWN");
  // Extended codes name their base first: SQLITE_CONSTRAINT_UNIQUE is a SQLITE_CONSTRAINT.
  const base = extended.split("_").slice(0, 2).join("_");
  return new LibsqlError(err.message, base, extended, Number(err.rawCode), err);
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/** Runs `stmts` in one transaction on `conn`, as @libsql/client's batch does. */
function runBatch(conn: Connection, stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
  const out: ResultSet[] = [];
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i];
    try {
      if (!conn.db.inTransaction) {
        throw new LibsqlBatchError("The transaction has been rolled back", i, "TRANSACTION_CLOSED");
      }
      out.push(conn.execute(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
    } catch (err) {
      if (err instanceof LibsqlBatchError || !(err instanceof LibsqlError)) throw err;
      throw new LibsqlBatchError(err.message, i, err.code, err.extendedCode, err.rawCode, err);
    }
  }
  return out;
}

/**
 * Runs write batches inside the caller's transaction, each under its own savepoint: a failing
 * batch is rolled back alone and its error is its result, as if it had run by itself.
 */
function runGroup(conn: Connection, groups: InStatement[][]): (ResultSet[] | Error)[] {
  return groups.map((stmts) => {
    conn.execute("SAVEPOINT batch");
    try {
      const results = runBatch(conn, stmts);
      conn.execute("RELEASE batch");
      return results;
    } catch (err) {
      conn.execute("ROLLBACK TO batch");
      conn.execute("RELEASE batch");
      return err instanceof Error ? err : new Error(String(err));
    }
  });
}

/**
 * BEGIN IMMEDIATE on a connection without a busy handler, retried until `timeoutMs`: while another
 * process holds the write lock this process yields to its event loop and keeps serving, where
 * SQLite's own busy handler would sleep with the whole process blocked (1 ms and up per try).
 */
async function beginWrite(conn: Connection, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (let tries = 0;; tries++) {
    try {
      conn.execute(BEGIN.write);
      return;
    } catch (err) {
      const busy = err instanceof LibsqlError && err.code === "SQLITE_BUSY";
      if (!busy || performance.now() > deadline) throw err;
    }
    // A lock is usually held for well under a millisecond: retry at once a few times, then back
    // off so a long holder does not cost a core.
    await new Promise((resolve) => tries < 50 ? setImmediate(resolve) : setTimeout(resolve, 1));
  }
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
    return attempt(() => this.#open().execute(stmt));
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return attempt(() => runBatch(this.#open(), stmts));
  }

  executeMultiple(sql: string): Promise<void> {
    return attempt(() => this.#open().executeMultiple(sql));
  }

  rollback(): Promise<void> {
    return attempt(() => {
      try {
        if (!this.closed) this.#conn!.execute("ROLLBACK");
      } finally {
        this.#settle();
      }
    });
  }

  commit(): Promise<void> {
    return attempt(() => {
      try {
        this.#open().execute("COMMIT");
      } finally {
        this.#settle();
      }
    });
  }

  close(): void {
    try {
      if (this.#conn?.db.open && this.#conn.db.inTransaction) this.#conn.execute("ROLLBACK");
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
}

/**
 * The WAL-index header of a WAL-mode store: SQLite keeps two copies of it, 48 bytes each, at the
 * start of the `-shm` file that every connection of every process maps, and rewrites both on
 * every commit (the last frame, its checksum and the WAL's salts change; sqlite.org/walformat.html,
 * "The WAL-Index Header"). Its format is fixed, since processes built on different SQLite
 * versions share it. Reading it is one seek and one read, where the smallest query costs 10 to 50
 * µs (docs/PERFORMANCE.md, issue 39). Copies that differ mean a commit is being written: no mark.
 * The file stays the same while this client holds a connection (SQLite deletes it only when the
 * last connection anywhere closes), so it is reopened only after the client closes its own.
 */
class WalIndexWatch {
  #file: Deno.FsFile | null = null;
  readonly #buf = new Uint8Array(96);

  constructor(readonly path: string) {}

  mark(): Uint8Array | null {
    try {
      this.#file ??= Deno.openSync(`${this.path}-shm`, { read: true });
      this.#file.seekSync(0, Deno.SeekMode.Start);
      if (this.#file.readSync(this.#buf) !== 96) return null;
    } catch {
      this.close();
      return null;
    }
    const b = this.#buf;
    for (let i = 0; i < 48; i++) if (b[i] !== b[i + 48]) return null;
    return b.slice(0, 48);
  }

  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = null;
  }
}

/** An embedded client on the database file at `path`. */
export function createEmbeddedClient(
  path: string,
  options: { timeoutMs: number },
): GroupingClient {
  // SQLite's default, until a checkpoint thread takes the work (store/checkpointer.ts).
  let autoCheckpointPages = 1000;
  const open = () => new Connection(path, options.timeoutMs, autoCheckpointPages);
  let shared: Connection | null = open();
  // Write batches and groups commit on a connection of their own without a busy handler
  // (beginWrite); in this process the write queue (store/write_lock.ts) already makes them wait.
  let writer: Connection | null = null;
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
  /** Runs `body` in a write transaction on the writer connection. */
  const inWrite = async <T>(body: (conn: Connection) => T): Promise<T> => {
    usable();
    const conn = writer ??= new Connection(path, 0, autoCheckpointPages);
    await beginWrite(conn, options.timeoutMs);
    try {
      const out = body(conn);
      conn.execute("COMMIT");
      return out;
    } finally {
      conn.reset();
    }
  };
  const watch = new WalIndexWatch(path);
  const closeAll = () => {
    watch.close();
    shared?.close();
    shared = null;
    writer?.close();
    writer = null;
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
        usable().execute(typeof stmt === "string" ? { sql: stmt, args: args ?? [] } : stmt)
      );
    },
    batch(stmts, mode = "deferred") {
      if (mode === "write") return inWrite((conn) => runBatch(conn, stmts));
      return attempt(() => {
        const conn = usable();
        conn.execute(BEGIN[mode]);
        try {
          const out = runBatch(conn, stmts);
          conn.execute("COMMIT");
          return out;
        } finally {
          conn.reset();
        }
      });
    },
    batchGroup(groups: InStatement[][]) {
      return inWrite((conn) => runGroup(conn, groups));
    },
    commitMark() {
      return closed ? null : watch.mark();
    },
    setAutoCheckpoint(pages: number) {
      autoCheckpointPages = pages;
      for (const conn of [shared, writer, ...idle, ...lent]) conn?.setAutoCheckpoint(pages);
    },
    migrate(stmts) {
      return attempt(() => {
        const conn = usable();
        conn.execute("PRAGMA foreign_keys=off");
        try {
          conn.execute(BEGIN.deferred);
          const out = runBatch(conn, stmts);
          conn.execute("COMMIT");
          return out;
        } finally {
          conn.reset();
          conn.execute("PRAGMA foreign_keys=on");
        }
      });
    },
    async transaction(mode: TransactionMode = "write") {
      const conn = await borrow();
      try {
        conn.execute(BEGIN[mode]);
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
          conn.executeMultiple(sql);
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
      return Promise.resolve();
    },
    close() {
      closed = true;
      closeAll();
    },
  };
  return client;
}
