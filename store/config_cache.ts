/**
 * What every request reads and what rarely changes, cached per client in two spaces, each tied to
 * a store-wide version bumped by triggers on any change, whichever process commits it:
 * - configuration (publishers, their content rules, buyers by key): `config_version`, migrations
 *   0016 and 0017;
 * - catalog (published articles by id or URL, books' rights ceilings): `catalog_version`,
 *   migration 0018.
 * One single-row read gives both versions, in place of the row reads and JSON parsing it saves,
 * and it is why a price, rule, key or article changed through one process is seen by every other
 * on its next request. Callers get shared, frozen objects: they must not mutate them.
 *
 * A request reads the versions once: its later lookups go through `readView(db, publisher)`, the
 * store as the request saw it when it loaded its publisher, and skip the read while the cache is
 * at least that object's version, which the request's first lookup checked. That first read is
 * skipped too when the embedded store says nothing was committed since the last one
 * (store/embedded.ts `commitMark`: a look at SQLite's WAL-index header, no query).
 */
import { BoundedCache } from "./bounded_cache.ts";
import type { Client } from "./db.ts";
import type { CommitMarking } from "./embedded.ts";
import { sameBytes } from "./unchanged_cache.ts";

type Space = "config" | "catalog";

interface Entries {
  version: number;
  /** A full space starts over (drop "all"): entries are cheap to load again. */
  map: BoundedCache<string, Promise<unknown>>;
  /** Estimated bytes the catalog space holds (article bodies). */
  bytes: number;
}
type State = Record<Space, Entries> & {
  /** The store's commit mark taken just before the versions were last read (null: none). */
  mark: Uint8Array | null;
};

const states = new WeakMap<Client, State>();
/** The configuration version each handed-out object was loaded under. */
const loadedAt = new WeakMap<object, number>();
/** Read views handed out: the store each looks at and the object whose load vouches for it. */
const views = new WeakMap<Client, { base: Client; seen: object }>();
/** One view per object seen (a publisher is shared by the requests of one version). */
const viewOf = new WeakMap<object, Client>();
/** Bounds what unknown hosts, ids and URLs can make a process keep. */
const MAX_ENTRIES = 10_000;
/** Bounds the article text the catalog space keeps; a full space starts over. */
const MAX_CATALOG_BYTES = 64 * 1024 * 1024;

/**
 * The store as a request sees it once it has loaded `seen`, an object this cache handed out (the
 * request's publisher): a client over the same store whose cached lookups trust the versions
 * read for that load instead of reading them again. Only read paths that write no
 * configuration use one; writes through it go to the store as usual.
 */
export function readView(db: Client, seen: object): Client {
  const base = views.get(db)?.base ?? db;
  const kept = viewOf.get(seen);
  if (kept && views.get(kept)?.base === base) return kept;
  // Methods run on the store itself (clients keep private fields a proxy cannot reach).
  const view = new Proxy(base, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  views.set(view, { base, seen });
  viewOf.set(seen, view);
  return view;
}

/**
 * `load()`'s answer for `key`, kept until the store's configuration version changes. `db` may be
 * a request's `readView()`, sparing the version read.
 */
export function cachedConfig<T>(db: Client, key: string, load: () => Promise<T>): Promise<T> {
  return cached(db, "config", key, load);
}

/**
 * `load()`'s answer for `key`, kept until the store's catalog version changes (an article, book,
 * chunk or model changed anywhere). `db` as for `cachedConfig`.
 */
export function cachedCatalog<T>(db: Client, key: string, load: () => Promise<T>): Promise<T> {
  return cached(db, "catalog", key, load);
}

/**
 * The store's catalog version as this request knows it (read now unless `db` is a request's
 * view that read it already): what search keeps its results under (search/result_cache.ts).
 */
export async function catalogVersion(db: Client): Promise<number> {
  return (await current(db)).catalog.version;
}

/** The cache state, after reading both versions unless this request already did. */
async function current(view: Client): Promise<State> {
  const seen = views.get(view);
  const db = seen?.base ?? view;
  let state = states.get(db);
  const checked = seen ? loadedAt.get(seen.seen) : undefined;
  if (state && checked !== undefined && state.config.version >= checked) return state;
  // Nothing committed anywhere since the versions were read: they are still the store's.
  const marking = db as Partial<CommitMarking>;
  const mark = marking.commitMark?.() ?? null;
  if (state && mark && state.mark && sameBytes(mark, state.mark)) return state;
  // The store is where this process's last write left it: the writer read the versions
  // right after that commit (a charged read commits on every request).
  const row = (mark && marking.readAfterCommit?.(VERSIONS, mark)) ??
    (await db.execute(VERSIONS)).rows[0];
  const config = Number(row?.config ?? -1);
  const catalog = Number(row?.catalog ?? -1);
  state = states.get(db); // another lookup may have read meanwhile
  if (!state) states.set(db, state = { config: fresh(config), catalog: fresh(catalog), mark });
  if (state.config.version !== config) state.config = fresh(config);
  if (state.catalog.version !== catalog) state.catalog = fresh(catalog);
  state.mark = mark;
  return state;
}

const VERSIONS = `SELECT (SELECT version FROM config_version WHERE id = 1) AS config,
  (SELECT version FROM catalog_version WHERE id = 1) AS catalog`;

async function cached<T>(
  db: Client,
  space: Space,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const state = await current(db);
  const entries = state[space];
  const hit = entries.map.get(key);
  if (hit) return hit as Promise<T>;
  // Starting over by count here too, so the byte estimate starts over with it.
  if (entries.map.size >= entries.map.max || entries.bytes >= MAX_CATALOG_BYTES) {
    entries.map.clear();
    entries.bytes = 0;
  }
  const version = state.config.version;
  const loading = load().then((value) => {
    if (value && typeof value === "object") loadedAt.set(value, version);
    if (space === "catalog") entries.bytes += weight(value);
    return deepFreeze(value);
  });
  entries.map.set(key, loading);
  // A failed load is not kept: the next lookup tries again.
  loading.catch(() => entries.map.get(key) === loading && entries.map.delete(key));
  return loading;
}

function fresh(version: number): Entries {
  return { version, map: new BoundedCache(MAX_ENTRIES, { drop: "all" }), bytes: 0 };
}

/** Roughly what a cached catalog value holds: its strings' length, plus a fixed overhead. */
function weight(value: unknown): number {
  let bytes = 256;
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) if (typeof v === "string") bytes += 2 * v.length;
  }
  return bytes;
}

// Frozen, so a caller that would change a shared object fails loudly instead of corrupting it.
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
