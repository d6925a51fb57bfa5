/**
 * One connection of libSQL's native binding with its statements kept, and the write transactions
 * run on it: the driver's side of the embedded client (embedded.ts). It throws the driver's own
 * errors; embedded.ts maps them to @libsql/client's.
 */
import { BoundedCache } from "./bounded_cache.ts";
import Database from "libsql";
import { setImmediate } from "node:timers";
import { sharedTurn, turnBegun } from "./turns.ts";

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

/** A statement with its arguments already in the driver's form (embedded.ts `toNative`). */
export interface NativeStmt {
  sql: string;
  args: unknown;
}

/** A statement's result as plain data (embedded.ts adds @libsql/client's `toJSON`). */
export interface RawResult {
  columns: string[];
  columnTypes: string[];
  rows: Record<string, unknown>[];
  rowsAffected: number;
  lastInsertRowid: bigint | undefined;
}

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

/** Statements that may write, run on any connection of this thread: see `writeGeneration`. */
let writes = 0;

/**
 * A count that moves whenever a statement that may write (anything but a read, COMMIT included)
 * ran on a connection of this thread: a commit mark remembered at one count is still this
 * thread's latest while the count stays (embedded.ts `commitMark`).
 */
export function writeGeneration(): number {
  return writes;
}

/** One connection with its kept statements. */
export class Connection {
  readonly db: NativeDatabase;
  #kept = new BoundedCache<string, Prepared>(MAX_KEPT);

  constructor(path: string, timeoutMs: number, autoCheckpointPages: number) {
    this.db = new NativeDb(path, { timeout: timeoutMs });
    // NORMAL in WAL mode loses no committed transaction on a process crash, only on power
    // loss; it is per connection, so every connection sets it (FULL fsyncs every commit).
    this.db.exec("PRAGMA synchronous=NORMAL");
    this.setAutoCheckpoint(autoCheckpointPages);
  }

  execute(stmt: NativeStmt): RawResult {
    const prepared = this.#prepare(stmt.sql);
    try {
      return run(prepared, stmt.args);
    } catch (err) {
      // A reader that failed mid-step is not reused: prepare it afresh next time. A writer is
      // kept: run() resets it before stepping again, and a dropped one left un-reset (a BEGIN
      // refused as busy) would count as a statement in progress and refuse the next COMMIT.
      if (prepared.reader) this.#kept.delete(stmt.sql);
      throw err;
    }
  }

  /** The WAL size (pages) past which a commit on this connection checkpoints (checkpointer.ts). */
  setAutoCheckpoint(pages: number): void {
    this.db.exec(`PRAGMA wal_autocheckpoint=${Math.trunc(pages)}`);
  }

  executeMultiple(sql: string): void {
    writes++;
    this.db.exec(sql);
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
    const stmt = this.db.prepare(sql);
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

/** SQL text: a statement without arguments. */
export const plain = (sql: string): NativeStmt => ({ sql, args: [] });

// Reads step to the end (all()), which also ends the statement's implicit read transaction: a
// kept statement left mid-result would pin its snapshot and the connection would read stale data.
function run(p: Prepared, args: unknown): RawResult {
  if (!p.reader) {
    writes++;
    const info = p.stmt.run(args);
    return {
      columns: [],
      columnTypes: [],
      rows: [],
      rowsAffected: info.changes,
      lastInsertRowid: BigInt(info.lastInsertRowid),
    };
  }
  const raw = p.stmt.all(args);
  const rows = new Array<Record<string, unknown>>(raw.length);
  for (let r = 0; r < raw.length; r++) {
    const values = raw[r];
    const row: Record<string, unknown> = {};
    for (const i of p.keep) row[p.columns[i]] = fromNative(values[i]);
    rows[r] = row;
  }
  return {
    columns: p.columns,
    columnTypes: p.columnTypes,
    rows,
    rowsAffected: 0,
    lastInsertRowid: undefined,
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

/** A batch's statement `index` failed with `cause` (embedded.ts makes it a LibsqlBatchError). */
export class BatchFailure {
  constructor(readonly index: number, readonly cause: unknown) {}
}

/** Thrown for a statement met after its batch's transaction was rolled back (by SQLite). */
export const TRANSACTION_CLOSED = "TRANSACTION_CLOSED";

/**
 * How long a write's statements run before the event loop gets a turn: a 10 MB book's re-chunk
 * batch ran SQLite for 50-70 ms in one stretch and /api/health waited behind it (issue 39). The
 * transaction stays open across the turn; nothing else of this process writes meanwhile (the
 * queue of write_lock.ts is held) and readers see the last commit (WAL). A charge's few
 * statements never reach it.
 */
export const WRITE_STRETCH_MS = 8;

/** The clock of one write's stretches: a turn is due once WRITE_STRETCH_MS passed since the last. */
export class Stretches {
  #since = performance.now();

  get due(): boolean {
    return turnBegun() || performance.now() - this.#since >= WRITE_STRETCH_MS;
  }

  // The thread's shared turn (store/turns.ts), not setImmediate: while immediates keep the event
  // loop busy, Deno's runtime reads sockets only every 61st task, and a request waited 61 stretches.
  async turn(): Promise<void> {
    await sharedTurn();
    this.#since = performance.now();
  }
}

/** `runBatch` in stretches: a turn for the event loop whenever `stretches` says one is due. */
export async function runBatchInStretches(
  conn: Connection,
  stmts: NativeStmt[],
  stretches: Stretches,
): Promise<RawResult[]> {
  const out: RawResult[] = [];
  for (let i = 0; i < stmts.length; i++) {
    if (stretches.due) await stretches.turn();
    out.push(step(conn, stmts, i));
  }
  return out;
}

/** Runs `stmts` in the transaction open on `conn`; a failure names its statement. */
export function runBatch(conn: Connection, stmts: NativeStmt[]): RawResult[] {
  return stmts.map((_, i) => step(conn, stmts, i));
}

/** Statement `i` of a batch in the transaction open on `conn`; a failure names it. */
function step(conn: Connection, stmts: NativeStmt[], i: number): RawResult {
  if (!conn.db.inTransaction) throw new BatchFailure(i, TRANSACTION_CLOSED);
  try {
    return conn.execute(stmts[i]);
  } catch (err) {
    throw new BatchFailure(i, err);
  }
}

/**
 * Commits write batches together (a group commit), each one's results or failure as if it had run
 * by itself. First all in one transaction without savepoints (two native calls fewer a batch, 7 to
 * 9 µs of a charge's 100); only when a batch fails is it all rolled back and run again with a
 * savepoint per batch (`runGroup`), so the failing batch fails alone. Nothing of the first try was
 * acknowledged, so running again is safe even if another process commits in between.
 */
export async function commitGroup(
  conn: Connection,
  timeoutMs: number,
  groups: NativeStmt[][],
): Promise<(RawResult[] | BatchFailure)[]> {
  await beginWrite(conn, timeoutMs);
  try {
    const stretches = new Stretches();
    const out: RawResult[][] = [];
    for (const stmts of groups) out.push(await runBatchInStretches(conn, stmts, stretches));
    conn.execute(COMMIT);
    return out;
  } catch (err) {
    if (!(err instanceof BatchFailure)) throw err;
  } finally {
    conn.reset();
  }
  return await inWrite(conn, timeoutMs, (c) => runGroup(c, groups));
}

/**
 * Runs write batches inside the caller's open transaction, each under its own savepoint: a failing
 * batch is rolled back alone and its failure is its result, as if it had run by itself.
 */
export function runGroup(
  conn: Connection,
  groups: NativeStmt[][],
): (RawResult[] | BatchFailure)[] {
  return groups.map((stmts) => {
    conn.execute(SAVEPOINT);
    try {
      const results = runBatch(conn, stmts);
      conn.execute(RELEASE);
      return results;
    } catch (err) {
      conn.execute(ROLLBACK_TO);
      conn.execute(RELEASE);
      return err instanceof BatchFailure ? err : new BatchFailure(0, err);
    }
  });
}

const SAVEPOINT = plain("SAVEPOINT batch");
const RELEASE = plain("RELEASE batch");
const ROLLBACK_TO = plain("ROLLBACK TO batch");
const BEGIN_IMMEDIATE = plain("BEGIN IMMEDIATE");
const COMMIT = plain("COMMIT");

/** The driver's error code ("SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE"), if it is its error. */
export function sqliteCode(err: unknown): string | null {
  if (!(err instanceof Error) || !("rawCode" in err)) return null;
  return String((err as { code?: unknown }).code ?? "SQLITE_UNKNOWN");
}

/**
 * BEGIN IMMEDIATE on a connection without a busy handler, retried until `timeoutMs`: while another
 * process holds the write lock this thread yields to its event loop and keeps serving, where
 * SQLite's own busy handler would sleep with the whole thread blocked (1 ms and up per try).
 */
async function beginWrite(conn: Connection, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (let tries = 0;; tries++) {
    try {
      conn.execute(BEGIN_IMMEDIATE);
      return;
    } catch (err) {
      const busy = sqliteCode(err)?.startsWith("SQLITE_BUSY") ?? false;
      if (!busy || performance.now() > deadline) throw err;
    }
    // A lock is usually held for well under a millisecond: retry at once a few times, then back
    // off so a long holder does not cost a core.
    await new Promise((resolve) => tries < 50 ? setImmediate(resolve) : setTimeout(resolve, 1));
  }
}

/** Runs `body` in a write transaction on `conn` (a writer without a busy handler) and commits. */
export async function inWrite<T>(
  conn: Connection,
  timeoutMs: number,
  body: (conn: Connection) => T | Promise<T>,
): Promise<T> {
  await beginWrite(conn, timeoutMs);
  try {
    const out = await body(conn);
    conn.execute(COMMIT);
    return out;
  } finally {
    conn.reset();
  }
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
export class WalIndexWatch {
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
