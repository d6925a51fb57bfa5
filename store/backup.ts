/**
 * Backup and restore of an embedded (`file:`) store, for the admin CLI (docs/OPERATIONS.md
 * "Backup and restore"). A backup is SQLite's `VACUUM INTO`: one read transaction, so the copy is
 * the store at one commit while the service keeps writing beside it (WAL). A restore swaps a
 * validated copy into place and keeps the store it replaces.
 */
import { type Client, createClient, LibsqlError } from "@libsql/client";
import { dirname, resolve } from "node:path";
import { StoreError } from "./db.ts";
import { lockFileOf, releaser, storeFileOf, tryLockStore } from "./store_lock.ts";
import { needWholeStore } from "./whole_store.ts";

/** What a backup wrote. */
export interface Backup {
  /** The copy's schema version. */
  version: number;
  bytes: number;
}

/** What a restore put in place. */
export interface Restored {
  /** The restored store's schema version (the next start migrates it forward if older). */
  version: number;
  /** The store file that was replaced. */
  target: string;
  /** Where the replaced store now is, or null when there was none. */
  previous: string | null;
}

/** Writes a consistent copy of the open store `db` to `file`, which must not exist yet. */
export async function backupStore(db: Client, file: string): Promise<Backup> {
  if (db.protocol !== "file") throw remote("back up");
  const path = resolve(file);
  if (path.includes("\0")) throw new StoreError("The backup path must not contain a NUL byte");
  if (await exists(path)) {
    throw new StoreError(`${path} already exists; a backup never overwrites a file`);
  }
  await needDirectory(dirname(path), "the backup");
  try {
    // A bound argument, not a quoted literal: VACUUM INTO takes any expression naming the file.
    await db.execute({ sql: "VACUUM INTO ?", args: [path] });
  } catch (err) {
    throw new StoreError(`Cannot write the backup to ${path}: ${describe(err)}`);
  }
  // VACUUM INTO does not sync its output; a backup that a crash can truncate is no backup.
  await sync(path);
  const version = await inspect(path).catch(async (err) => {
    await Deno.remove(path).catch(() => {});
    throw err;
  });
  return { version, bytes: (await Deno.stat(path)).size };
}

/** Backs up the store at `url` without migrating it: a newer build must not upgrade it first. */
export async function backupStoreAt(url: string, file: string): Promise<Backup> {
  const source = storeFileOf(url);
  if (source === null) throw remote("back up");
  if (!await exists(source)) throw new StoreError(`There is no store at ${source} to back up`);
  let db: Client;
  try {
    db = createClient({ url, timeout: 5000 });
  } catch (err) {
    throw new StoreError(`Cannot open the store at ${source}: ${describe(err)}`);
  }
  try {
    return await backupStore(db, file);
  } finally {
    db.close();
  }
}

/**
 * Replaces the embedded store at `targetUrl` with the backup `file`, which must be a whole Folio
 * store no newer than `latestVersion`. The copy is validated before the target is touched, the
 * target must not be open anywhere, and the replaced store is kept beside it. The store's lock file
 * is held exclusively throughout (store/store_lock.ts), so no process opens the store meanwhile;
 * `derived` (the search snapshots) is removed before it is released.
 */
export async function restoreStore(
  file: string,
  targetUrl: string,
  options: { latestVersion: number; now: Date; derived?: string[] },
): Promise<Restored> {
  const target = storeFileOf(targetUrl);
  if (target === null) throw remote("restore into");
  const from = resolve(file);
  const info = await Deno.stat(from).catch(() => null);
  if (!info) throw new StoreError(`There is no backup at ${from}`);
  if (!info.isFile) throw new StoreError(`The backup ${from} is not a file`);
  if (from === target) throw new StoreError(`The backup ${from} is the store itself`);
  await needDirectory(dirname(target), "the store");
  const unlock = await lockExclusive(target);
  try {
    const restored = await swapIn(from, target, options);
    for (const dir of options.derived ?? []) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
    return restored;
  } finally {
    unlock();
  }
}

async function swapIn(
  from: string,
  target: string,
  options: { latestVersion: number; now: Date },
): Promise<Restored> {
  const staging = `${target}.restoring`;
  await removeWithSidecars(staging); // what an interrupted restore left
  await Deno.copyFile(from, staging);
  try {
    // Validated on the copy, so what is checked is exactly what goes into place.
    const version = await inspect(staging, from);
    if (version > options.latestVersion) {
      throw new StoreError(
        `The backup ${from} has schema version ${version}, newer than this build's ${options.latestVersion}; upgrade Folio first, then restore it`,
      );
    }
    await needWholeStore(staging, from);
    await sync(staging);
    await removeSidecars(staging);
    const previous = await keepAside(target, options.now);
    try {
      await Deno.rename(staging, target);
    } catch (err) {
      if (previous) await Deno.rename(previous, target).catch(() => {});
      throw err;
    }
    return { version, target, previous };
  } catch (err) {
    await removeWithSidecars(staging);
    throw err;
  }
}

/**
 * Takes the store's lock file exclusively, or refuses: a process holds it shared (Folio or a CLI
 * command has the store open), or it cannot be opened, when nothing can be known and nothing is
 * replaced.
 */
async function lockExclusive(target: string): Promise<() => void> {
  const lock = await tryLockStore(target, "exclusive");
  if (!("held" in lock)) return releaser(lock);
  if (lock.held) throw inUse(target);
  const lockFile = lockFileOf(target);
  throw new StoreError(
    `Cannot restore into ${target}: its lock file ${lockFile} cannot be opened (${lock.reason}), so whether Folio is using the store cannot be told`,
  );
}

function inUse(target: string): StoreError {
  return new StoreError(
    `The store ${target} is in use; stop Folio (every process on this store) before restoring`,
  );
}

// The schema version of a store file that passes SQLite's integrity check.
async function inspect(path: string, shownAs = path): Promise<number> {
  let db: Client | undefined;
  try {
    db = createClient({ url: `file:${path}` });
    const check = await db.execute("PRAGMA integrity_check");
    if (check.rows.length !== 1 || check.rows[0][0] !== "ok") {
      throw new StoreError(`The backup ${shownAs} fails SQLite's integrity check`);
    }
    const table = await db.execute(
      "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'",
    );
    if (!table.rows.length) {
      throw new StoreError(`The backup ${shownAs} is a SQLite database but not a Folio store`);
    }
    const rs = await db.execute("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations");
    return Number(rs.rows[0].v);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    if (err instanceof LibsqlError && err.code === "SQLITE_NOTADB") {
      throw new StoreError(`The backup ${shownAs} is not a SQLite database (corrupt or foreign)`);
    }
    throw new StoreError(`The backup ${shownAs} cannot be read: ${describe(err)}`);
  } finally {
    db?.close();
  }
}

/**
 * Moves the store at `target` aside as `<target>.before-restore-<time>`, with its -wal and -shm,
 * after refusing a store in use and folding its WAL into the file (the kept copy is whole alone).
 */
async function keepAside(target: string, now: Date): Promise<string | null> {
  const present = await exists(target);
  if (present) await settle(target);
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  let kept = `${target}.before-restore-${stamp}`;
  for (let n = 2; await exists(kept); n++) kept = `${target}.before-restore-${stamp}-${n}`;
  if (present) await Deno.rename(target, kept);
  // Stale sidecars must not be paired with the restored file; they go with what they belonged to.
  for (const suffix of SIDECARS) {
    if (await exists(target + suffix)) await Deno.rename(target + suffix, kept + suffix);
  }
  return present ? kept : null;
}

// Refuses a store that another process has open, or that a writer holds, then checkpoints it.
async function settle(target: string): Promise<void> {
  if (await lockedByAnotherProcess([target, `${target}-shm`])) throw inUse(target);
  let db: Client | undefined;
  try {
    db = createClient({ url: `file:${target}`, timeout: 250 });
    const tx = await db.transaction("write"); // BEGIN IMMEDIATE: fails while another writes
    await tx.rollback();
    tx.close();
    const rs = await db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    if (Number(rs.rows[0]?.busy ?? 0) !== 0) throw inUse(target);
  } catch (err) {
    if (err instanceof LibsqlError && err.code === "SQLITE_NOTADB") return; // kept as it is
    if (err instanceof LibsqlError && err.code.startsWith("SQLITE_BUSY")) throw inUse(target);
    throw err;
  } finally {
    db?.close();
  }
}

/**
 * True when another process holds a POSIX lock on one of `paths`, as a process with a WAL store
 * open does for as long as it is open, idle or not: a second look, for processes that take no lock
 * file (a build before it, a sqlite3 shell). Only Linux lists locks (/proc/locks), and only to a
 * process allowed to read it (not the `folio` task); otherwise this is false. This process is left
 * out: the libSQL driver keeps a lock on a file even after its client is closed.
 */
async function lockedByAnotherProcess(paths: string[]): Promise<boolean> {
  const table = await Deno.readTextFile("/proc/locks").catch(() => null);
  if (table === null) return false;
  const ids = new Set<string>();
  for (const path of paths) {
    const s = await Deno.stat(path).catch(() => null);
    if (s?.dev != null && s.ino != null) {
      const dev = BigInt(s.dev);
      const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
      const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
      ids.add(`${major}:${minor}:${s.ino}`);
    }
  }
  // "1: POSIX  ADVISORY  READ 9191 fe:00:2171932 1073741826 1073742335" (waiters add "->").
  const line = /^\d+:\s+(?:->\s+)?\S+\s+\S+\s+\S+\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/;
  return table.split("\n").some((l) => {
    const m = line.exec(l);
    if (!m || Number(m[1]) === Deno.pid) return false;
    return ids.has(`${BigInt("0x" + m[2])}:${BigInt("0x" + m[3])}:${m[4]}`);
  });
}

const SIDECARS = ["-wal", "-shm", "-journal"];

async function removeSidecars(path: string): Promise<void> {
  for (const suffix of SIDECARS) await Deno.remove(path + suffix).catch(() => {});
}

async function removeWithSidecars(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  await removeSidecars(path);
}

function remote(what: string): StoreError {
  return new StoreError(
    `Cannot ${what} a remote store (libsql://, http(s)://) from Folio: use the libSQL server's own backup and point-in-time restore; folio backup and restore handle embedded (file:) stores only`,
  );
}

async function needDirectory(dir: string, of: string): Promise<void> {
  const info = await Deno.stat(dir).catch(() => null);
  if (!info?.isDirectory) throw new StoreError(`The directory of ${of}, ${dir}, does not exist`);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function sync(path: string): Promise<void> {
  using f = await Deno.open(path, { read: true, write: true });
  await f.sync();
}

function describe(err: unknown): string {
  if (err instanceof LibsqlError) {
    if (err.code === "SQLITE_NOTADB") return "the file is not a database (corrupt or foreign file)";
    return err.message.replace(/^SQLITE_\w+: /, "");
  }
  return err instanceof Error ? err.message : String(err);
}
