/**
 * The search service's contract: what it returns and what it does (search/service.ts builds it,
 * search/upkeep.ts its upkeep).
 */
import type { Client } from "../store/db.ts";

/** One ranked article; `match` only on hits the semantic leg found (SPEC "Search result match"). */
export interface SearchHit {
  articleId: string;
  score: number;
  match?: { chunkId: string; section: string; snippet: string };
}

/** A ranking and which legs contributed to it. */
export interface SearchResult {
  mode: "hybrid" | "fts" | "semantic" | "none";
  hits: SearchHit[];
}

/** A passage for retrieval-augmented generation. */
export interface Passage {
  chunkId: string;
  articleId: string;
  section: string;
  text: string;
  score: number;
}

/**
 * What a search asks for: `limit` hits; `view`, the request's view of the store when it has one
 * (store/config_cache.ts `readView`): the search answers for the catalog version that request
 * read, without reading it again.
 */
export interface SearchOptions {
  limit: number;
  view?: Client;
}

/** Search over one publisher at a time, and the upkeep of its derived state. */
export interface SearchService {
  /** Ranked articles for a query within one publisher; BLOCKED articles and chapters whose book ceiling denies rag are never returned. (The caller returns nothing at all when the publisher itself denies rag.) */
  search(publisherId: string, query: string, options: SearchOptions): Promise<SearchResult>;
  /** Best passages for RAG (same eligibility rules). */
  passages(publisherId: string, query: string, options: SearchOptions): Promise<Passage[]>;
  /** Re-chunk and re-index one article after it was inserted/updated/deleted in the store (FTS via triggers is automatic; this refreshes chunks and queues embedding). */
  articleChanged(publisherId: string, articleId: string): Promise<void>;
  /** The same for many articles at once (a book's chapters): re-chunked a few hundred KB of text at a time, once each. */
  articlesChanged(publisherId: string, articleIds: string[]): Promise<void>;
  /** Embed pending chunks (bounded batch); returns how many were embedded. Called by a background loop and by tests. */
  embedPending(options?: { publisherId?: string; max?: number }): Promise<number>;
  /** Articles whose every chunk has a vector from the current embedder, out of all articles. */
  coverage(publisherId: string): Promise<{ embedded: number; total: number }>;
  /** Drop and rebuild a publisher's derived state (chunks, model, vectors) from the articles table. */
  rebuild(publisherId: string): Promise<void>;
  /** Start/stop the background embedding loop (start is idempotent; stop waits for the batch in flight). */
  start(): void;
  /** Stops the loop (waiting for the batch in flight) and saves snapshots. */
  close(): Promise<void>;
}
