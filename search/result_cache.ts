/**
 * Recent search results of this process, answered again while nothing they are made of changed:
 * the store's catalog version (migration 0018) is bumped by triggers on every change to articles,
 * books, chunks, vectors and models, whichever process commits it. Each search reads that one
 * number (a single-row read) first; a result is only kept under the version read before it was
 * computed, so a change committed meanwhile makes the next search compute afresh. The same idea
 * as Solr's queryResultCache, which a new searcher (a commit) empties.
 *
 * Results are shared by every request that asks the same question: callers must not mutate them.
 */
import type { Client } from "@libsql/client";

/** Results kept at most; the least recently asked go first. */
export const MAX_RESULTS = 2000;

export class ResultCache<T> {
  #version = -1;
  #entries = new Map<string, Promise<T>>();

  constructor(readonly db: Client, readonly max = MAX_RESULTS) {}

  /**
   * The answer for `key`: a kept one while the catalog version is unchanged, else `compute()`'s
   * (kept for the next asker; concurrent askers of a new key share one computation). `onChange`
   * runs once when the version moved, before computing: callers refresh what they keep beside.
   */
  async get(key: string, compute: () => Promise<T>, onChange: () => void): Promise<T> {
    const rs = await this.db.execute("SELECT version FROM catalog_version WHERE id = 1");
    const version = Number(rs.rows[0]?.version ?? -1);
    if (version !== this.#version) {
      this.#version = version;
      this.#entries.clear();
      onChange();
    }
    const kept = this.#entries.get(key);
    if (kept) {
      // Most recently asked last, so the oldest key is the first one a full cache drops.
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      return kept;
    }
    const computing = compute();
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, computing);
    // A failed search is not kept: the next asker tries again.
    computing.catch(() => this.#entries.get(key) === computing && this.#entries.delete(key));
    return computing;
  }

  /** Forgets every result (this process changed something the version does not cover yet). */
  clear(): void {
    this.#entries.clear();
  }
}
