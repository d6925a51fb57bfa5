/**
 * The search service: hybrid retrieval over one publisher's articles. Its upkeep (the background
 * loop, re-chunking, training, rebuilds) is search/upkeep.ts; both share the state built here.
 */
import type { Client } from "@libsql/client";
import { chunksById, chunksOfArticles, coverage as storeCoverage } from "../store/chunks.ts";
import { eligibleIds } from "../store/eligible.ts";
import { articleTexts } from "../store/search_index.ts";
import { currentModelId } from "../store/search_models.ts";
import { chunkArticle } from "./chunker.ts";
import type { Embedder } from "./embedder.ts";
import { DEFAULT_FEEDBACK, FEEDBACK_FUSION, type FeedbackOptions, rocchio } from "./feedback.ts";
import { createFtsLeg } from "./fts_leg.ts";
import { FtsThreads } from "./fts_threads.ts";
import { DEFAULT_FUSION, fuseScored, type FusionOptions, type LegHit, modeOf } from "./fusion.ts";
import { IndexCache, LARGE_LOAD } from "./index_cache.ts";
import { searchText } from "./indexer.ts";
import type { LsaOptions } from "./lsa.ts";
import { type LoadedModel, loadModel } from "./models.ts";
import { type Epoch, MAX_RESULTS, ResultCache } from "./result_cache.ts";
import { snippet } from "./snippet.ts";
import { words } from "./text.ts";
import type { TrainerCommand } from "./trainer.ts";
import type { Passage, SearchHit, SearchOptions, SearchResult, SearchService } from "./types.ts";
import { BURST_GAP_MS, createUpkeep } from "./upkeep.ts";
import type { VectorHit, VectorIndex, VectorPool } from "./vector_index.ts";

/** Options of `createSearchService`; `lsa`, `fusion`, `minSemanticScore` exist for evaluation. */
export interface SearchServiceOptions {
  db: Client;
  /** Where vector snapshots live; null keeps nothing on disk (tests). */
  dataDir: string | null;
  /** "local" (default): a per-publisher LSA model; or any embedder, e.g. an OpenAI-compatible one. */
  embedder?: "local" | Embedder;
  /** The clock (server/platform/clock.ts): model training times and refresh intervals read it. */
  now: () => Date;
  /**
   * What the background loop's idle pause waits on (server/platform/clock.ts's Timer; default setTimeout).
   * Tests pass a manual timer: each pending sleep is a round done, each advance the next round.
   */
  timer?: { sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** Where a failure of the background loop is reported (the service's logger in Folio). */
  onError?: (message: string, error: unknown) => void;
  lsa?: LsaOptions;
  fusion?: FusionOptions;
  /** Semantic hits below this similarity are dropped (LSA default 0.2; 0 for other embedders). */
  minSemanticScore?: number;
  /** Candidates each leg contributes to the fusion. */
  legDepth?: number;
  /** bm25 column weights (pub, title, summary, tags, body); evaluation only. */
  ftsWeights?: number[];
  /** Which legs run (default both); one leg alone is for evaluations and benchmarks. */
  legs?: "both" | "fts" | "semantic";
  /** Pseudo-relevance feedback (a leg's null turns it off); defaults in feedback.ts. */
  feedback?: Partial<FeedbackOptions>;
  /**
   * Search threads for the full-text leg (search/fts_threads.ts): the store file they open
   * read-only, how many, and from how many indexed documents they are used (default 5,000).
   */
  /** `onCacheReleased`: after a quiet search thread gave its page cache back. */
  threads?: { storePath: string; count: number; minDocs?: number; onCacheReleased?: () => void };
  /**
   * While this answers true, the background loop leaves models that are due untrained (Folio: a
   * book import is running), so a book's model trains once, on the whole book, after it.
   */
  holdTraining?: () => boolean;
  /**
   * Called when the background loop goes idle after embedding at least BURST_CHUNKS chunks and
   * after vector indexes read LARGE_LOAD vectors (each at most every BURST_GAP_MS), and before the
   * loop trains a model `holdTraining()` held: Folio gives memory back to the system then
   * (server/platform/memory.ts).
   */
  afterBurst?: () => void;
  /** How to start the model trainer process (default: search/trainer.ts's); tests replace it. */
  trainer?: TrainerCommand;
  /** Evaluation only: sees each query's leg rankings with their raw scores before fusion. */
  onLegs?: (legs: { fts: LegHit[]; semantic: LegHit[] }) => void;
  /**
   * Answer a repeated search from recent results while the catalog is unchanged (default true;
   * off with `onLegs`, and in benchmarks that time the search itself).
   */
  resultCache?: boolean;
}

/**
 * Articles the first semantic pass keeps, by article vector, for Rocchio's second pass to re-rank
 * instead of scanning every article again (that second scan made a search 1.5× slower at 30k).
 * Larger than any evaluation corpus, so cross-validation measures exactly the full-scan ranking.
 */
const POOL = 2000;
/**
 * Search threads take the full-text leg once this many documents are indexed: below it FTS5 takes
 * tens of microseconds, less than the hop to a thread and back.
 */
const THREADS_FROM_DOCS = 5000;

/** Creates the search service over a store. */
export function createSearchService(options: SearchServiceOptions): SearchService {
  const { db } = options;
  const { now } = options;
  const onError = options.onError ??
    ((message: string, err: unknown) => console.error(`${message}: ${String(err)}`));
  const fusion = options.fusion ?? DEFAULT_FUSION;
  const feedback: FeedbackOptions = { ...DEFAULT_FEEDBACK, ...options.feedback };
  const external = typeof options.embedder === "object" ? options.embedder : null;
  const minScore = options.minSemanticScore ?? (external ? 0 : 0.2);
  // A large load's rows and snapshot are garbage once it is done; the embedding loop's release
  // may have come before it (a search right after a book's vectors), so it gives memory back too.
  const releaseMemory = () => {
    try {
      options.afterBurst?.();
    } catch (err) {
      onError("Releasing memory after indexing failed", err);
    }
  };
  let releasedAfterLoad = -Infinity;
  const cache = new IndexCache(db, options.dataDir, () => now().getTime(), {
    vectors: LARGE_LOAD,
    call: () => {
      if (now().getTime() - releasedAfterLoad < BURST_GAP_MS) return;
      releasedAfterLoad = now().getTime();
      releaseMemory();
    },
  });
  const models = new Map<string, { loaded: LoadedModel | null; checkedAt: number }>();
  type Answer = Awaited<ReturnType<typeof compute>>;
  const results = new ResultCache<Answer>(
    db,
    options.resultCache === false || options.onLegs ? 0 : MAX_RESULTS,
  );
  const ftsOptions = { weights: options.ftsWeights, feedback: feedback.fts };
  const inline = createFtsLeg(db, ftsOptions);
  const threads = options.threads && options.threads.count > 0
    ? new FtsThreads(
      options.threads.storePath,
      ftsOptions,
      options.threads.count,
      undefined,
      options.threads.onCacheReleased,
    )
    : null;
  let threadsOffUntil = -Infinity;
  const upkeep = createUpkeep(options, {
    db,
    cache,
    models,
    external,
    embedderFor,
    onError,
    releaseMemory,
  });

  /** The embedder for a publisher's vectors; null while no LSA model is trained yet. */
  async function embedderFor(publisherId: string): Promise<Embedder | null> {
    if (external) return external;
    const cached = models.get(publisherId);
    const t = now().getTime();
    if (cached && t - cached.checkedAt < 1000) return cached.loaded?.embedder ?? null;
    const id = await currentModelId(db, publisherId);
    if (cached && (cached.loaded?.embedder.id ?? null) === id) {
      cached.checkedAt = t;
      return cached.loaded?.embedder ?? null;
    }
    const loaded = id ? await loadModel(db, publisherId) : null;
    models.set(publisherId, { loaded, checkedAt: t });
    return loaded?.embedder ?? null;
  }

  type SemanticLeg = {
    hits: VectorHit[];
    vector: Float32Array | null;
    index: VectorIndex | null;
    pool: VectorPool;
    /** Eligibility already read in this catalog epoch: a pass asks only about new ids. */
    checked: Map<string, boolean>;
  };

  const noSemanticLeg = (): SemanticLeg => ({
    hits: [],
    vector: null,
    index: null,
    pool: new Int32Array(0),
    checked: new Map(),
  });

  /** Nearest articles to the query's vector; keeps a pool for Rocchio's second pass when configured. */
  async function semanticLeg(publisherId: string, query: string, depth: number, epoch: Epoch) {
    const none = noSemanticLeg();
    const embedder = await embedderFor(publisherId);
    if (!embedder) return none;
    const index = await cache.get(publisherId, embedder);
    if (index.size === 0) return { ...none, index };
    let vector: Float32Array;
    try {
      [vector] = await embedder.embed([query]);
    } catch {
      return { ...none, index }; // the provider is down: full text still answers
    }
    if (!vector || !vector.some((x) => x !== 0)) return { ...none, index };
    const pool = feedback.semantic ? POOL : 0;
    const checked = epoch.eligible;
    const first = await vectorSearch(publisherId, index, vector, depth, { pool, checked });
    return { hits: first.hits, vector, index, pool: first.pool, checked };
  }

  /**
   * Rocchio's second pass (stage 2): the query moved towards the top `docs` of the first pass (the
   * semantic leg's own, or both legs' first passes fused), re-ranking the first pass's pool.
   */
  async function feedbackPass(
    publisherId: string,
    first: SemanticLeg,
    fts: LegHit[],
    depth: number,
  ): Promise<SemanticLeg> {
    const fb = feedback.semantic;
    const { vector, index } = first;
    if (!fb || fb.docs < 1 || !vector || !index || first.hits.length === 0) return first;
    const ranked = fb.from === "fused" ? fuseScored(fts, first.hits, FEEDBACK_FUSION) : first.hits;
    const top = ranked.slice(0, fb.docs).map((h) => index.articleVector(h.articleId));
    const moved = rocchio(vector, top.filter((v) => v !== null), fb.beta);
    const again = await vectorSearch(publisherId, index, moved, depth, {
      among: first.pool,
      checked: first.checked,
    });
    return { ...first, hits: again.hits, vector: moved };
  }

  /** The eligible nearest articles; `pool` keeps that many nearest ids for a second pass. */
  async function vectorSearch(
    id: string,
    index: VectorIndex,
    vector: Float32Array,
    depth: number,
    pass: { pool?: number; among?: VectorPool; checked: Map<string, boolean> },
  ) {
    const found = index.searchPooled(vector, {
      candidates: Math.max(depth * 2, 100),
      minScore,
      pool: pass.pool ?? 0,
      among: pass.among,
    });
    const unknown = found.hits.map((h) => h.articleId).filter((a) => !pass.checked.has(a));
    const ok = await eligibleIds(db, id, unknown);
    for (const a of unknown) pass.checked.set(a, ok.has(a));
    return {
      hits: found.hits.filter((h) => pass.checked.get(h.articleId)).slice(0, depth),
      pool: found.pool,
    };
  }

  /** The full-text leg, on a search thread when the index is big enough to be worth the hop. */
  async function ftsLeg(publisherId: string, query: string, depth: number): Promise<LegHit[]> {
    const at = now().getTime();
    const counts = await inline.counts(publisherId, at);
    const minDocs = options.threads?.minDocs ?? THREADS_FROM_DOCS;
    if (threads && at >= threadsOffUntil && counts.docs >= minDocs) {
      try {
        return await threads.run(publisherId, query, depth, counts);
      } catch (err) {
        if (!upkeep.stopping) {
          threadsOffUntil = at + 60_000; // reported once, not on every search while it lasts
          onError("A search thread failed; full text runs on the serving thread for a minute", err);
        }
      }
    }
    return await inline.run(publisherId, query, depth, counts);
  }

  /** A search's answer, kept while the catalog is unchanged (search/result_cache.ts). */
  function search(publisherId: string, query: string, opts: SearchOptions) {
    return results.get(
      `${publisherId}\n${opts.limit}\n${query}`,
      (epoch) => compute(publisherId, query, opts.limit, epoch),
      () => {
        // Something changed somewhere: what is kept beside the results is checked again first.
        cache.touchAll();
        for (const m of models.values()) m.checkedAt = -Infinity;
      },
      { view: opts.view },
    );
  }

  async function compute(publisherId: string, query: string, limit: number, epoch: Epoch) {
    const n = Math.max(1, Math.min(Math.floor(limit) || 10, 100));
    const depth = Math.max(n, options.legDepth ?? 50);
    if (words(query).length === 0) {
      return { result: { mode: "none" as const, hits: [] }, sem: null };
    }
    const legs = options.legs ?? "both";
    const [fts, first] = await Promise.all([
      legs === "semantic" ? [] : ftsLeg(publisherId, query, depth),
      legs === "fts" ? noSemanticLeg() : semanticLeg(publisherId, query, depth, epoch),
    ]);
    const sem = await feedbackPass(publisherId, first, fts, depth);
    options.onLegs?.({ fts, semantic: sem.hits });
    const fused = fuseScored(fts, sem.hits, fusion).slice(0, n);
    const best = new Map(sem.hits.map((h) => [h.articleId, h.n]));
    const chunkIds = fused.filter((h) => h.semantic).map((h) =>
      `${h.articleId}#${best.get(h.articleId)}`
    );
    const chunks = new Map((await chunksById(db, publisherId, chunkIds)).map((c) => [c.id, c]));
    const hits: SearchHit[] = fused.map((h) => {
      const hit: SearchHit = { articleId: h.articleId, score: h.score };
      const chunk = h.semantic ? chunks.get(`${h.articleId}#${best.get(h.articleId)}`) : undefined;
      if (chunk) {
        hit.match = {
          chunkId: chunk.id,
          section: chunk.section,
          snippet: snippet(chunk.text, query),
        };
      }
      return hit;
    });
    return { result: { mode: modeOf(fts.length, sem.hits.length), hits }, sem };
  }

  async function passages(
    publisherId: string,
    query: string,
    opts: SearchOptions,
  ): Promise<Passage[]> {
    const { result, sem } = await search(publisherId, query, opts);
    const ids = result.hits.map((h) => h.articleId);
    const byArticle = new Map<string, { id: string; n: number; section: string; text: string }[]>();
    for (const c of await chunksOfArticles(db, publisherId, ids)) {
      byArticle.set(c.articleId, [...byArticle.get(c.articleId) ?? [], c]);
    }
    const missing = ids.filter((id) => !byArticle.has(id));
    if (missing.length > 0) {
      // Not chunked yet (just ingested): chunk on the fly so the passage still exists.
      for (const a of await articleTexts(db, publisherId, missing)) {
        byArticle.set(a.id, chunkArticle(a.id, searchText(a)));
      }
    }
    const wanted = new Set(words(query));
    const out: Passage[] = [];
    for (const hit of result.hits) {
      const chunks = byArticle.get(hit.articleId) ?? [];
      if (chunks.length === 0) continue;
      const semantic = sem?.vector && sem.index
        ? sem.index.chunkScores(hit.articleId, sem.vector)
        : [];
      const best = semantic.length > 0
        ? chunks.find((c) => c.n === semantic[0].n)
        : maxBy(chunks, (c) => words(c.text).filter((w) => wanted.has(w)).length);
      const c = best ?? chunks[0];
      out.push({
        chunkId: c.id,
        articleId: hit.articleId,
        section: c.section,
        text: c.text,
        score: hit.score,
      });
    }
    return out;
  }

  return {
    async search(publisherId, query, opts): Promise<SearchResult> {
      return (await search(publisherId, query, opts)).result;
    },
    passages,
    async articleChanged(publisherId, articleId) {
      await upkeep.articlesChanged(publisherId, [articleId]);
    },
    articlesChanged: upkeep.articlesChanged,
    embedPending: upkeep.embedPending,
    async coverage(publisherId) {
      const embedder = await embedderFor(publisherId);
      return await storeCoverage(db, publisherId, { embedder: embedder?.id ?? null });
    },
    rebuild: upkeep.rebuild,
    start: upkeep.start,
    async close() {
      const stopped = upkeep.close(); // says it is stopping first, so a thread's failure is quiet
      threads?.close();
      await stopped;
    },
  };
}

function maxBy<T>(items: T[], score: (item: T) => number): T | undefined {
  let best: T | undefined;
  let top = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > top) [best, top] = [item, s];
  }
  return best;
}
