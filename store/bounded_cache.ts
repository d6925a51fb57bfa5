/**
 * A Map with a ceiling on its entries: what unknown hosts, patterns, queries or statements can
 * make a long-running process keep. Every in-memory cache in Folio is one of these, so the bound
 * and what happens at it are written once.
 *
 * - `drop: "oldest"` (default): adding a new key to a full cache drops the entry set (or, with
 *   `recency: "use"`, used) longest ago; `"all"`: it starts over, for memos whose entries are
 *   cheap to recompute and many (stems), where keeping order would cost more than it saves.
 * - `recency: "set"` (default): order is by last `set()`; `"use"`: `get()` counts too (LRU).
 */
export interface BoundedCacheOptions {
  drop?: "oldest" | "all";
  recency?: "set" | "use";
}

export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #drop: "oldest" | "all";
  readonly #byUse: boolean;

  /** `max`: entries kept at most (at least 1). */
  constructor(readonly max: number, options: BoundedCacheOptions = {}) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`a bounded cache keeps at least one entry, not ${max}`);
    }
    this.#drop = options.drop ?? "oldest";
    this.#byUse = options.recency === "use";
  }

  get size(): number {
    return this.#map.size;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** The value for `key`; with `recency: "use"` it becomes the most recent entry. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined && this.#byUse) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  /** Keeps `value` as the most recent entry, dropping as the options say when a new key is full. */
  set(key: K, value: V): this {
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.max) {
      if (this.#drop === "all") this.#map.clear();
      else this.#map.delete(this.#map.keys().next().value!);
    }
    this.#map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  /** Values, oldest first. */
  values(): IterableIterator<V> {
    return this.#map.values();
  }
}
