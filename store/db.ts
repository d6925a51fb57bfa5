/**
 * The store: one libSQL database, embedded (`file:`) by default or remote (`libsql://`, `http(s)://`).
 * Opening it applies the forward-only migrations in `store/migrations/` inside one transaction.
 */
import type { Client, Transaction } from "@libsql/client";
import { LibsqlError } from "@libsql/core/api";
import { withWriteLock } from "./write_lock.ts";
import { createEmbeddedClient } from "./embedded.ts";
import { lockFileOf, releaser, storeFileOf, tryLockStore } from "./store_lock.ts";

export type { Client } from "@libsql/client";

// A remote store's client loads only for a remote URL; scripts/compile.ts includes it. Not through
// `loadOnce` (server/platform/lazy.ts), whose preload would fetch it for every embedded start.
const REMOTE_CLIENT = ["./remote_client", "ts"].join(".");

/** Something that executes statements: the client or an open transaction. */
export type Executor = Pick<Transaction, "execute">;

/** An open store. */
export interface Store {
  db: Client;
  url: string;
  /** The database file when the store is embedded (a plain `file:` URL); null otherwise. */
  path: string | null;
  /** Schema version after migrations. */
  version: number;
  close(): void;
}

/** A store that cannot be opened or used; its message is one sentence for the operator. */
export class StoreError extends Error {
  override name = "StoreError";
}

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Opens the store at `url` and brings its schema up to date. */
export async function openStore(
  url: string,
  options: { authToken?: string; now: Date },
): Promise<Store> {
  const path = embeddedPath(url);
  // Held while the store is open, so that `folio restore` never replaces it under this process.
  const unlock = await lockShared(url);
  let db: Client;
  try {
    // The timeout is SQLite's busy timeout: writers from other processes wait instead of failing.
    const client = path === null
      ? (await import(REMOTE_CLIENT) as typeof import("./remote_client.ts")).createClient({
        url,
        authToken: options.authToken,
        timeout: BUSY_TIMEOUT_MS,
      })
      : createEmbeddedClient(path, { timeoutMs: BUSY_TIMEOUT_MS });
    db = withWriteLock(client, url);
  } catch (err) {
    unlock();
    throw new StoreError(`Cannot open the store at ${redact(url)}: ${describe(err)}`);
  }
  try {
    if (path !== null) {
      // WAL lets readers run beside the one writer and survives crashes without losing commits.
      await db.execute("PRAGMA journal_mode=WAL");
    }
    const version = await migrate(db, await loadMigrations(), options);
    return {
      db,
      url,
      path,
      version,
      close: () => {
        db.close();
        unlock();
      },
    };
  } catch (err) {
    db.close();
    unlock();
    if (err instanceof StoreError) throw err;
    throw new StoreError(`Cannot open the store at ${redact(url)}: ${describe(err)}`);
  }
}

const BUSY_TIMEOUT_MS = 5000;

/**
 * Takes the shared lock of the store file behind `url` (store/store_lock.ts); a no-op for remote
 * and in-memory stores. A restore in progress is refused rather than waited for: a start must not
 * read a store that is half replaced, and a supervisor's restart retries anyway.
 */
async function lockShared(url: string): Promise<() => void> {
  const file = storeFileOf(url);
  if (file === null) return () => {};
  const lock = await tryLockStore(file, "shared");
  if (!("held" in lock)) return releaser(lock);
  const lockFile = lockFileOf(file);
  if (lock.held) {
    throw new StoreError(
      `The store ${file} is being restored (folio restore holds ${lockFile}); try again once the restore has finished`,
    );
  }
  const shown = redact(url);
  throw new StoreError(
    `Cannot open the store at ${shown}: its lock file ${lockFile} cannot be opened (${lock.reason})`,
  );
}

/** The file behind a plain `file:` URL, served by the embedded client; null for anything else. */
function embeddedPath(url: string): string | null {
  if (!url.startsWith("file:") || url.includes("?") || url.includes(":memory:")) return null;
  const rest = decodeURIComponent(url.slice("file:".length));
  // file:///abs and file://localhost/abs name the same file as file:/abs.
  return rest.replace(/^\/\/(localhost)?(?=\/)/, "");
}

/** Reads the numbered SQL files beside this module, in order. */
export async function loadMigrations(): Promise<Migration[]> {
  const dir = new URL("./migrations/", import.meta.url);
  const out: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const m = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(entry.name);
    if (!m) continue;
    out.push({
      version: Number(m[1]),
      name: m[2],
      sql: await Deno.readTextFile(new URL(entry.name, dir)),
    });
  }
  return out.sort((a, b) => a.version - b.version);
}

/** Applies pending migrations in one write transaction; refuses a schema newer than this build. */
export async function migrate(
  db: Client,
  migrations: Migration[],
  options: { now: Date },
): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  const tx = await db.transaction("write");
  try {
    await tx.execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    const rs = await tx.execute("SELECT version FROM schema_migrations");
    const applied = new Set(rs.rows.map((r) => Number(r.version)));
    const current = Math.max(0, ...applied);
    if (current > latest) {
      throw new StoreError(
        `Refusing to use the store: its schema is version ${current}, newer than this build's ${latest}; upgrade Folio first`,
      );
    }
    // Every migration not yet recorded, not only those above the highest: branches merge
    // migrations written side by side (0012 after 0013 was applied), and each must run once.
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      await tx.executeMultiple(m.sql);
      await tx.execute({
        sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        args: [m.version, m.name, options.now.getTime()],
      });
    }
    await tx.commit();
    return Math.max(current, latest);
  } catch (err) {
    tx.close();
    throw err;
  } finally {
    tx.close();
  }
}

/** One round trip to the store (health checks). */
export async function ping(db: Client): Promise<void> {
  await db.execute("SELECT 1");
}

/** Runs `fn` in one write transaction: committed when it returns, rolled back when it throws. */
export async function inWriteTx<T>(db: Client, fn: (tx: Executor) => Promise<T>): Promise<T> {
  const tx = await db.transaction("write");
  try {
    const out = await fn(tx);
    await tx.commit();
    return out;
  } catch (err) {
    await tx.rollback().catch(() => {});
    throw err;
  } finally {
    tx.close();
  }
}

/** The store URL for a data directory when FOLIO_DB_URL is not set. */
export function fileUrl(dataDir: string): string {
  const abs = dataDir.startsWith("/")
    ? dataDir
    : `${Deno.cwd()}/${dataDir.replace(/^(\.\/)+/, "")}`;
  return `file:${abs.replace(/\/+$/, "")}/folio.db`;
}

function describe(err: unknown): string {
  if (err instanceof LibsqlError) {
    if (err.code === "SQLITE_NOTADB") return "the file is not a database (corrupt or foreign file)";
    return err.message.replace(/^SQLITE_\w+: /, "");
  }
  return err instanceof Error ? err.message : String(err);
}

// Never print a remote store's credentials embedded in its URL.
function redact(url: string): string {
  return url.replace(/(authToken=)[^&]+/i, "$1***").replace(/\/\/[^@/]*@/, "//***@");
}
