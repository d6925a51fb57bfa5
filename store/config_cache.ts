/**
 * Publishers and their content rules, cached per client: every request reads them and they change
 * rarely. Each lookup first reads `config_version` (migration 0016, bumped by triggers on any
 * change, whichever process commits it): one single-row read in place of the row reads and JSON
 * parsing it saves, and the reason a price or rule changed through one process is seen by every
 * other on its next request. Callers get shared objects: they must not mutate them.
 */
import type { Client } from "./db.ts";

interface Cache {
  version: number;
  entries: Map<string, Promise<unknown>>;
}
const caches = new WeakMap<Client, Cache>();
/** Bounds what unknown hosts and ids can make a process keep. */
const MAX_ENTRIES = 10_000;

/** `load()`'s answer for `key`, kept until the store's configuration version changes. */
export async function cachedConfig<T>(
  db: Client,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const rs = await db.execute("SELECT version FROM config_version WHERE id = 1");
  const version = Number(rs.rows[0]?.version ?? -1);
  let cache = caches.get(db);
  if (!cache || cache.version !== version) {
    caches.set(db, cache = { version, entries: new Map() });
  }
  const hit = cache.entries.get(key);
  if (hit) return hit as Promise<T>;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  const loading = load().then(deepFreeze);
  cache.entries.set(key, loading);
  // A failed load is not kept: the next lookup tries again.
  loading.catch(() => cache.entries.get(key) === loading && cache.entries.delete(key));
  return loading;
}

// Frozen, so a caller that would change a shared object fails loudly instead of corrupting it.
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
