/**
 * Publishers, their content rules and buyers by key, cached per client: every request reads them
 * and they change rarely. Each lookup first reads `config_version` (migrations 0016 and 0017,
 * bumped by triggers on any change, whichever process commits it): one single-row read in place of
 * the row reads and JSON parsing it saves, and the reason a price, rule or key changed through one
 * process is seen by every other on its next request. Callers get shared objects: they must not
 * mutate them.
 *
 * A request reads the version once: a lookup `freshAs` an object this cache handed out skips the
 * read while the cache is at least that object's version, which the request's first lookup checked.
 */
import type { Client } from "./db.ts";

interface Cache {
  version: number;
  entries: Map<string, Promise<unknown>>;
}
const caches = new WeakMap<Client, Cache>();
/** The configuration version each handed-out object was loaded under. */
const loadedAt = new WeakMap<object, number>();
/** Bounds what unknown hosts and ids can make a process keep. */
const MAX_ENTRIES = 10_000;

/**
 * `load()`'s answer for `key`, kept until the store's configuration version changes. `freshAs`: an
 * object this request already looked up (only read paths that write no configuration pass one).
 */
export async function cachedConfig<T>(
  db: Client,
  key: string,
  load: () => Promise<T>,
  options: { freshAs?: object } = {},
): Promise<T> {
  let cache = caches.get(db);
  const checked = options.freshAs ? loadedAt.get(options.freshAs) : undefined;
  if (!cache || checked === undefined || cache.version < checked) {
    const rs = await db.execute("SELECT version FROM config_version WHERE id = 1");
    const version = Number(rs.rows[0]?.version ?? -1);
    if (!cache || cache.version !== version) {
      caches.set(db, cache = { version, entries: new Map() });
    }
  }
  const hit = cache.entries.get(key);
  if (hit) return hit as Promise<T>;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  const version = cache.version;
  const loading = load().then((value) => {
    if (value && typeof value === "object") loadedAt.set(value, version);
    return deepFreeze(value);
  });
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
