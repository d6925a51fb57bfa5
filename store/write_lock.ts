/**
 * One writer at a time inside this process. The embedded libSQL driver is synchronous: when one
 * pooled connection holds a write transaction across an `await` and another connection starts a
 * write, the second blocks the event loop in SQLite's busy wait, so the first can never commit
 * (a deadlock that ends in SQLITE_BUSY after the busy timeout). Queueing writes and write
 * transactions behind an async lock removes that; reads still run beside a writer (WAL).
 * Other processes are serialised by SQLite itself, since their event loops are their own.
 */
import type { Client, InStatement, ResultSet, Transaction, TransactionMode } from "@libsql/client";
import { setImmediate } from "node:timers";
import type { GroupingClient } from "./embedded.ts";

// One queue per database, shared by every client this process opens on it: two clients on one
// file in one process (a second app instance in tests, the admin CLI beside the server) would
// otherwise deadlock each other exactly as two pooled connections do.
const queues = new Map<string, { tail: Promise<void> }>();

interface Waiting {
  stmts: InStatement[];
  resolve: (results: ResultSet[]) => void;
  reject: (err: unknown) => void;
}

/** The client with its writes serialised behind the process-wide queue of `key` (the store URL). */
export function withWriteLock(client: Client, key: string): Client {
  let queue = queues.get(key);
  if (!queue) queues.set(key, queue = { tail: Promise.resolve() });
  const q = queue;
  const lock = async (): Promise<() => void> => {
    let release!: () => void;
    const previous = q.tail;
    q.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return release;
  };
  const locked = async <T>(fn: () => Promise<T>): Promise<T> => {
    const release = await lock();
    try {
      return await fn();
    } finally {
      release();
    }
  };

  // Write batches wait until the event loop has run what its last poll delivered (setImmediate:
  // microseconds, where setTimeout(0) waits about 2 ms), then commit together: the requests
  // handled in one turn pay for one commit, not one each (group commit).
  const grouping = "batchGroup" in client ? client as GroupingClient : null;
  let waiting: Waiting[] = [];
  const commitWaiting = async () => {
    const group = waiting;
    waiting = [];
    if (group.length === 1) {
      await client.batch(group[0].stmts, "write").then(group[0].resolve, group[0].reject);
      return;
    }
    try {
      const results = await grouping!.batchGroup(group.map((w) => w.stmts));
      results.forEach((r, i) => r instanceof Error ? group[i].reject(r) : group[i].resolve(r));
    } catch (err) {
      for (const w of group) w.reject(err);
    }
  };
  const groupWrite = (stmts: InStatement[]) =>
    new Promise<ResultSet[]>((resolve, reject) => {
      waiting.push({ stmts, resolve, reject });
      if (waiting.length === 1) setImmediate(() => locked(commitWaiting));
    });

  return new Proxy(client, {
    get(target, prop) {
      switch (prop) {
        case "execute":
          return (stmt: InStatement | string, args?: unknown) => {
            const run = () =>
              // deno-lint-ignore no-explicit-any
              (target.execute as any)(stmt, args) as ReturnType<Client["execute"]>;
            return isWrite(stmt) ? locked(run) : run();
          };
        case "batch":
          return (stmts: InStatement[], mode?: TransactionMode) => {
            if (mode === "read") return target.batch(stmts, mode);
            if (mode === "write" && grouping) return groupWrite(stmts);
            return locked(() => target.batch(stmts, mode));
          };
        case "executeMultiple":
          return (sql: string) => locked(() => target.executeMultiple(sql));
        case "migrate":
          return (stmts: InStatement[]) => locked(() => target.migrate(stmts));
        case "transaction":
          return async (mode?: TransactionMode) => {
            if (mode === "read") return target.transaction(mode);
            const release = await lock();
            try {
              return releasing(await target.transaction(mode), release);
            } catch (err) {
              release();
              throw err;
            }
          };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// Releases the lock once, whichever of commit, rollback or close ends the transaction.
function releasing(tx: Transaction, release: () => void): Transaction {
  let released = false;
  const done = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  return new Proxy(tx, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "commit" || prop === "rollback") {
        return async () => {
          try {
            return await value.call(target);
          } finally {
            done();
          }
        };
      }
      if (prop === "close") {
        return () => {
          try {
            value.call(target);
          } finally {
            done();
          }
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const READ_ONLY = /^\s*(?:--[^\n]*\n\s*)*(SELECT|EXPLAIN|VALUES)\b/i;

function isWrite(stmt: InStatement | string): boolean {
  const sql = typeof stmt === "string" ? stmt : stmt.sql;
  return !READ_ONLY.test(sql);
}
