/**
 * What this process learnt from the catalog, answered again while nothing it is made of changed:
 * the store's catalog version (migration 0018) is bumped by triggers on every change to articles,
 * books, chunks, vectors and models, whichever process commits it. Each search learns that number
 * first, from the request's own version read when it passes `freshAs` (store/config_cache.ts).
 * Kept per version ("epoch"):
 * - recent search results, the same idea as Solr's queryResultCache, which a commit empties;
 * - which articles may be searched at all (eligibility), so a search asks the store only about
 *   articles no search of this epoch has asked about.
 * A search keeps the epoch it started in: what it learns is written there, never into a newer
 * epoch it might be stale for.
 *
 * Results are shared by every request that asks the same question: callers must not mutate them.
 */
import type { Client } from "@libsql/client";
import { catalogVersion } from "../store/config_cache.ts";

/** Results kept at most; the least recently asked go first. */
export const MAX_RESULTS = 2000;
/** Eligibility answers kept at most per epoch (a full memo starts over). */
const MAX_ELIGIBLE = 200_000;

/** What one catalog version taught this process, beside its results. */
export interface Epoch {
  version: number;
  /** Article id → may be searched. */
  eligible: Map<string, boolean>;
}

interface Kept<T> extends Epoch {
  results: Map<string, Promise<T>>;
}

export class ResultCache<T> {
  #epoch: Kept<T> = fresh(-1);

  /** `max` 0 keeps no results (benchmarks that time the search itself) but still the epoch. */
  constructor(readonly db: Client, readonly max = MAX_RESULTS) {}

  /**
   * The answer for `key`: a kept one while the catalog version is unchanged, else `compute()`'s
   * (kept for the next asker; concurrent askers of a new key share one computation). `onChange`
   * runs once when the version moved, before computing: callers refresh what they keep beside.
   * `freshAs`: the request's publisher, when the request has read the versions already.
   */
  async get(
    key: string,
    compute: (epoch: Epoch) => Promise<T>,
    onChange: () => void,
    options: { freshAs?: object } = {},
  ): Promise<T> {
    const version = await catalogVersion(this.db, options);
    if (version !== this.#epoch.version) {
      this.#epoch = fresh(version);
      onChange();
    }
    const epoch = this.#epoch;
    if (epoch.eligible.size > MAX_ELIGIBLE) epoch.eligible.clear();
    if (this.max === 0) return compute(epoch);
    const kept = epoch.results.get(key);
    if (kept) {
      // Most recently asked last, so the oldest key is the first one a full cache drops.
      epoch.results.delete(key);
      epoch.results.set(key, kept);
      return kept;
    }
    const computing = compute(epoch);
    if (epoch.results.size >= this.max) epoch.results.delete(epoch.results.keys().next().value!);
    epoch.results.set(key, computing);
    // A failed search is not kept: the next asker tries again.
    computing.catch(() => epoch.results.get(key) === computing && epoch.results.delete(key));
    return computing;
  }
}

function fresh<T>(version: number): Kept<T> {
  return { version, eligible: new Map(), results: new Map() };
}
