/**
 * The search service's upkeep, apart from its queries (search/service.ts): the background loop
 * that re-chunks changed articles and embeds pending chunks, training each publisher's LSA model
 * when due, rebuilding a publisher's derived state, and releasing memory after a burst of work.
 */
import type { Client } from "@libsql/client";
import { invalidateEmbeddings } from "../store/chunks.ts";
import { dirtyArticles, publishersWithWork, resetSearchIndex } from "../store/search_index.ts";
import type { Embedder } from "./embedder.ts";
import type { IndexCache } from "./index_cache.ts";
import { embedBatch, rechunk } from "./indexer.ts";
import { type LoadedModel, needsTraining, trainModel } from "./models.ts";
import type { SearchServiceOptions } from "./service.ts";

/** The background loop's pause once it has nothing to embed. */
export const LOOP_IDLE_MS = 1000;
const LOOP_BATCH = 512;

/** A burst of background work worth releasing memory after (a book's chapters, a crawl). */
const BURST_CHUNKS = 512;
export const BURST_GAP_MS = 30_000;

/** After a failed training the background loop waits this long before training that model again. */
const TRAIN_RETRY_MS = 60_000;

/** What the queries and the upkeep share: the vector indexes and the loaded models. */
export interface SearchState {
  db: Client;
  cache: IndexCache;
  /** Per publisher: the loaded LSA model (null: none trained yet) and when it was last checked. */
  models: Map<string, { loaded: LoadedModel | null; checkedAt: number }>;
  /** A provider's embedder in place of the local models, or null. */
  external: Embedder | null;
  /** The embedder a publisher's vectors were written with; null while no model is trained. */
  embedderFor(publisherId: string): Promise<Embedder | null>;
  onError(message: string, error: unknown): void;
  /** `afterBurst`, its failure reported rather than thrown. */
  releaseMemory(): void;
}

/** The upkeep half of `SearchService` (search/types.ts). */
export interface Upkeep {
  embedPending(
    opts?: { publisherId?: string; max?: number; background?: boolean },
  ): Promise<number>;
  articlesChanged(publisherId: string, articleIds: string[]): Promise<void>;
  rebuild(publisherId: string): Promise<void>;
  start(): void;
  /** Stops the loop, waits for the batch in flight and saves the vector snapshots. */
  close(): Promise<void>;
  /** True once `close()` was called: failures then are the shutdown's, not worth reporting. */
  readonly stopping: boolean;
}

/** The upkeep over the shared state. */
export function createUpkeep(options: SearchServiceOptions, state: SearchState): Upkeep {
  const { db, cache, models, external, onError, releaseMemory } = state;
  const { now } = options;
  const invalidated = new Set<string>();
  /** When each publisher's last training failed: the background loop waits before retrying. */
  const trainingFailed = new Map<string, number>();
  /** The loop left a model untrained while an import ran (`holdTraining()`). */
  let heldForImport = false;
  let loop: Promise<void> | null = null;
  let stopping = false;
  let wake: (() => void) | null = null;
  const pause = (signal: AbortSignal): Promise<void> =>
    options.timer?.sleep(LOOP_IDLE_MS, signal) ??
      new Promise((resolve) => {
        const timer = setTimeout(resolve, LOOP_IDLE_MS);
        signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });

  /**
   * The embedder to write vectors with, training (or retraining) the LSA model when due; null
   * when the model is due but the background loop must not train it now: `holdTraining()` says
   * so, or training failed less than TRAIN_RETRY_MS ago (a trainer that cannot start would
   * otherwise be retried, and reported, every second).
   */
  async function writerFor(publisherId: string, background = false): Promise<Embedder | null> {
    if (external) {
      if (!invalidated.has(publisherId)) {
        invalidated.add(publisherId); // vectors of another provider or model are redone once
        await invalidateEmbeddings(db, publisherId, { keep: external.id });
      }
      return external;
    }
    if (await needsTraining(db, publisherId)) {
      // Meanwhile its chunks wait unembedded: they would be redone after training anyway.
      if (background && (options.holdTraining?.() ?? false)) {
        heldForImport = true;
        return null;
      }
      const failedAt = trainingFailed.get(publisherId);
      if (background && failedAt !== undefined && now().getTime() - failedAt < TRAIN_RETRY_MS) {
        return null;
      }
      // What the import that held this training left (a book's text, its chapters and their
      // conversion) is garbage now: given back first, the sample and the model are read on an
      // idle node's memory (docs/PERFORMANCE.md, "memory given back after a book's import").
      if (background && heldForImport) {
        heldForImport = false;
        releaseMemory();
      }
      let loaded;
      try {
        loaded = await trainModel(db, publisherId, {
          now: now(),
          lsa: options.lsa,
          trainer: options.trainer,
        });
      } catch (err) {
        trainingFailed.set(publisherId, now().getTime());
        throw err;
      }
      trainingFailed.delete(publisherId);
      models.set(publisherId, { loaded, checkedAt: now().getTime() });
      return loaded?.embedder ?? null;
    }
    return await state.embedderFor(publisherId);
  }

  async function embedPending(
    opts: { publisherId?: string; max?: number; background?: boolean } = {},
  ): Promise<number> {
    const max = opts.max ?? LOOP_BATCH;
    const publishers = opts.publisherId ? [opts.publisherId] : await publishersWithWork(db);
    let done = 0;
    for (const publisherId of publishers) {
      if (done >= max) break;
      for (;;) {
        const dirty = await dirtyArticles(db, publisherId, 200);
        if (dirty.length === 0) break;
        await rechunk(db, publisherId, dirty);
      }
      const embedder = await writerFor(publisherId, opts.background === true);
      if (!embedder) continue;
      done += await embedBatch(db, publisherId, { embedder, max: max - done });
      cache.touch(publisherId);
    }
    return done;
  }

  async function runLoop(): Promise<void> {
    let lastSave = now().getTime();
    let burst = 0; // chunks embedded since memory was last released
    let lastRelease = -Infinity;
    while (!stopping) {
      let n = 0;
      try {
        n = await embedPending({ max: LOOP_BATCH, background: true });
        burst += n;
        if (now().getTime() - lastSave > 30_000) {
          lastSave = now().getTime();
          await cache.save();
        }
      } catch (err) {
        onError("Search indexing failed", err);
      }
      if (n === 0 && !stopping) {
        // Idle after a burst: once the last release is far enough behind, the next one.
        if (burst >= BURST_CHUNKS && now().getTime() - lastRelease >= BURST_GAP_MS) {
          burst = 0;
          lastRelease = now().getTime();
          releaseMemory();
        }
        // A change ends the pause early (the sleep rejects with the abort: that is the wake-up).
        const woken = new AbortController();
        wake = () => woken.abort();
        await pause(woken.signal).catch(() => {});
        wake = null;
      }
    }
  }

  return {
    embedPending,
    async articlesChanged(publisherId, articleIds) {
      await rechunk(db, publisherId, articleIds);
      cache.touch(publisherId);
      wake?.();
    },
    async rebuild(publisherId) {
      await resetSearchIndex(db, publisherId);
      models.delete(publisherId);
      invalidated.delete(publisherId);
      await cache.drop(publisherId);
      while (
        await embedPending({ publisherId, max: 5000 }) > 0
      ) { /* until every chunk has a vector */ }
    },
    start() {
      if (loop) return;
      stopping = false;
      loop = runLoop();
    },
    async close() {
      stopping = true;
      wake?.();
      await loop;
      loop = null;
      await cache.save();
    },
    get stopping() {
      return stopping;
    },
  };
}
