/**
 * Rows kept while the store is unchanged: a value read at commit mark M (store/embedded.ts
 * `commitMark`, taken just before the read) is still what the store holds while its mark is M,
 * since nothing was committed by any process in between. For rows every request reads that no
 * version trigger covers (an MCP session); a store without marks (remote) reads every time.
 */
import { BoundedCache } from "./bounded_cache.ts";
import type { Client } from "./db.ts";
import type { CommitMarking } from "./embedded.ts";

interface Kept<T> {
  mark: Uint8Array;
  value: T;
}

/** A cache of `load()`ed values per key, each valid while the store's commit mark stays put. */
export class UnchangedCache<T> {
  readonly #of = new WeakMap<Client, BoundedCache<string, Kept<T>>>();

  constructor(readonly max: number) {}

  /** `load()`'s answer for `key` in `db`, read again only if anything was committed since. */
  async get(db: Client, key: string, load: () => Promise<T>): Promise<T> {
    const mark = (db as Partial<CommitMarking>).commitMark?.() ?? null;
    if (mark === null) return await load();
    const kept = this.#cacheOf(db);
    const hit = kept.get(key);
    if (hit && sameBytes(hit.mark, mark)) return hit.value;
    const value = await load();
    kept.set(key, { mark, value });
    return value;
  }

  // One cache per store client (tests open several stores in one process).
  #cacheOf(db: Client): BoundedCache<string, Kept<T>> {
    let kept = this.#of.get(db);
    if (!kept) this.#of.set(db, kept = new BoundedCache(this.max));
    return kept;
  }
}

/** Whether two marks are the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
