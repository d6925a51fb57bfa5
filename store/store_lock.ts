/**
 * The lock file beside an embedded store, `<store>.lock` (docs/OPERATIONS.md "Backup and
 * restore"): every process that opens the store holds a shared lock on it for as long as the store
 * is open (any number of servers and CLI commands share a store), and `folio restore` holds it
 * exclusively for the whole restore. It needs no permission beyond reading and writing the data
 * directory, which every task grants, unlike the kernel's lock table (/proc/locks).
 *
 * A file of its own: Deno's locks are flock(2) locks, which on Linux never interact with the
 * fcntl(2) locks SQLite takes on the store itself (and the libSQL driver keeps those even after a
 * client closes). The lock file is never deleted: a new one would be another file, locked apart.
 */
import { resolve } from "node:path";

/** The lock file of the store file at `path`. */
export function lockFileOf(path: string): string {
  return `${resolve(path)}.lock`;
}

/**
 * The file behind a `file:` store URL (`file:/abs`, `file:rel`, `file:///abs`, with or without a
 * query), or null for a remote or in-memory store. Server and restore must agree on it to meet on
 * one lock file.
 */
export function storeFileOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const rest = url.slice("file:".length).replace(/[?#].*$/s, "");
  if (rest === ":memory:" || rest === "" || /[?&]mode=memory\b/.test(url)) return null;
  let path = rest;
  try {
    path = decodeURIComponent(rest);
  } catch { /* a literal % in the path: as written */ }
  // file:///abs and file://localhost/abs name the same file as file:/abs.
  return resolve(path.replace(/^\/\/(localhost)?(?=\/)/, ""));
}

/** Why a lock could not be taken: another process holds it, or the file cannot be opened. */
export type LockRefusal = { held: true } | { held: false; reason: string };

/**
 * Opens the lock file of the store at `path` (creating it) and takes it without waiting: shared
 * for a process using the store, exclusive for a restore. Closing the returned file releases it.
 */
export async function tryLockStore(
  path: string,
  mode: "shared" | "exclusive",
): Promise<Deno.FsFile | LockRefusal> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(lockFileOf(path), { read: true, write: true, create: true });
  } catch (err) {
    return { held: false, reason: err instanceof Error ? err.message : String(err) };
  }
  try {
    if (await file.tryLock(mode === "exclusive")) return file;
    file.close();
    return { held: true };
  } catch (err) {
    file.close();
    return { held: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Releases a lock taken by `tryLockStore` once, however often it is called. */
export function releaser(file: Deno.FsFile): () => void {
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    file.close();
  };
}
