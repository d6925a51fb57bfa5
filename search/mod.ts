/**
 * Search (docs/DESIGN.md section 7): per-publisher hybrid retrieval. Full text is FTS5 bm25 inside the
 * store; vectors over chunks live in memory per publisher (snapshotted in the data directory);
 * the legs are fused by reciprocal rank. Everything here is derived from the store and rebuildable.
 */
export { createSearchService, type SearchServiceOptions } from "./service.ts";
export { createOpenAiEmbedder, type Embedder, EmbedderError, type EmbedFetch } from "./embedder.ts";
export { type Chunk, chunkArticle } from "./chunker.ts";
export type { SearchMode } from "./fusion.ts";
export type { Passage, SearchHit, SearchOptions, SearchResult, SearchService } from "./types.ts";
