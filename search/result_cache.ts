/**
 * What this process learnt from the catalog, answered again while nothing it is made of changed:
 * the store's catalog version (migration 0018) is bumped by triggers on every change to articles,
 * books, chunks, vectors and models, whichever process commits it. Each search learns that number
 * first, from the request's own version read when it passes its view (store/config_cache.ts).
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
import { BoundedCache } from "../store/bounded_cache.ts";
import { catalogVersion } from "../store/config_cache.ts";

/** Results kept at most; the least recently asked go first. */
export const MAX_RESULTS = 2000;
/**
 * Eligibility answers kept at most per epoch (a full memo starts over). A plain Map, not a
 * BoundedCache: it is emptied only before a search starts, since a search reads back the
 * answers it has just written.
 */
const MAX_ELIGIBLE = 200_000;

/** What one catalog version taught this process, beside its results. */
export interface Epoch {
  version: number;
  /** Article id → may be searched. */
  eligible: Map<string, boolean>;
}

interface Kept<T> extends Epoch {
  /** Null when no results are kept (`max` 0). */
  results: BoundedCache<string, Promise<T>> | null;
}

export class ResultCache<T> {
  #epoch: Kept<T>;

  /** `max` 0 keeps no results (benchmarks that time the search itself) but still the epoch. */
  constructor(readonly db: Client, readonly max = MAX_RESULTS) {
    this.#epoch = this.#fresh(-1);
  }

  /**
   * The answer for `key`: a kept one while the catalog version is unchanged, else `compute()`'s
   * (kept for the next asker; concurrent askers of a new key share one computation). `onChange`
   * runs once when the version moved, before computing: callers refresh what they keep beside.
   * `view`: the request's view of the store, when the request has read the versions already.
   */
  async get(
    key: string,
    compute: (epoch: Epoch) => Promise<T>,
    onChange: () => void,
    options: { view?: Client } = {},
  ): Promise<T> {
    const version = await catalogVersion(options.view ?? this.db);
    if (version !== this.#epoch.version) {
      this.#epoch = this.#fresh(version);
      onChange();
    }
    const epoch = this.#epoch;
    if (epoch.eligible.size > MAX_ELIGIBLE) epoch.eligible.clear();
    const { results } = epoch;
    if (!results) return compute(epoch);
    // Least recently asked goes first when full (recency "use").
    const kept = results.get(key);
    if (kept) return kept;
    const computing = compute(epoch);
    results.set(key, computing);
    // A failed search is not kept: the next asker tries again.
    computing.catch(() => results.get(key) === computing && results.delete(key));
    return computing;
  }

  #fresh(version: number): Kept<T> {
    const results = this.max > 0
      ? new BoundedCache<string, Promise<T>>(this.max, { recency: "use" })
      : null;
    return { version, eligible: new Map(), results };
  }
}
