/**
 * The full-text leg of a search as one function over a store connection, so the same code runs
 * on the serving thread or on a search thread of its own (search/fts_threads.ts).
 */
import type { Client } from "@libsql/client";
import { feedbackTexts } from "../store/search_fts.ts";
import { indexedCounts } from "../store/search_index.ts";
import { expansionTerms, type FtsFeedback, mixRuns } from "./feedback.ts";
import { commonWords, ftsSearch } from "./fts.ts";
import type { LegHit } from "./fusion.ts";

/** A publisher with at least this share of the indexed documents is not scoped inside FTS. */
const UNSCOPED_SHARE = 0.8;
/** How long document counts (per publisher and per word) are kept before they are read again. */
const COUNTS_MS = 60_000;

/** What shapes the leg: bm25 column weights and RM3 feedback (null: off), both evaluation knobs. */
export interface FtsLegOptions {
  weights?: number[];
  feedback: FtsFeedback | null;
}

/** Indexed documents as last counted: the whole index's and one publisher's, and when. */
export interface DocCounts {
  docs: number;
  publisherDocs: number;
  /** When they were counted (ms): word counts kept beside them are dropped when it changes. */
  at: number;
}

/** The leg: ranked hits for a query, given the document counts (`counts()`, kept a minute). */
export interface FtsLeg {
  run(publisherId: string, query: string, depth: number, counts: DocCounts): Promise<LegHit[]>;
  /** The counts for a publisher, read again when older than a minute. */
  counts(publisherId: string, nowMs: number): Promise<DocCounts>;
}

/**
 * Full text with corpus-common words skipped, scoped to the publisher in FTS only when it holds
 * a minority of the index, then RM3's second pass when configured. Search threads run `run()`
 * with the counts the serving thread read, so the index is counted once per process.
 */
export function createFtsLeg(db: Client, options: FtsLegOptions): FtsLeg {
  let indexed = { docs: 0, at: -Infinity, byPublisher: new Map<string, number>() };
  /** Documents per word (stem), for the counts taken at `at`. */
  let known = { at: -Infinity, byStem: new Map<string, number>() };

  return {
    async counts(publisherId, nowMs) {
      if (nowMs - indexed.at > COUNTS_MS) {
        const byPublisher = await indexedCounts(db);
        const docs = [...byPublisher.values()].reduce((a, b) => a + b, 0);
        indexed = { docs, at: nowMs, byPublisher };
      }
      const { docs, at, byPublisher } = indexed;
      return { docs, at, publisherDocs: byPublisher.get(publisherId) ?? 0 };
    },
    async run(publisherId, query, depth, counts) {
      if (known.at !== counts.at) known = { at: counts.at, byStem: new Map() };
      const skip = await commonWords(db, query, { docs: counts.docs, known: known.byStem });
      // The publisher token's postings list every one of its documents: when they are most of the
      // index, walking it costs more than ranking the few other documents the eligibility join
      // drops (at 100k in one publisher: p50 4.2 → 1.8 ms).
      const scoped = counts.publisherDocs / Math.max(1, counts.docs) < UNSCOPED_SHARE;
      const opts = { limit: depth, weights: options.weights, skip, scoped };
      const first = await ftsSearch(db, publisherId, query, opts);
      const fb = options.feedback;
      if (!fb || fb.docs < 1 || fb.terms < 1 || fb.weight <= 0 || first.length === 0) return first;
      const top = first.slice(0, fb.docs);
      const texts = await feedbackTexts(db, publisherId, top.map((h) => h.articleId));
      const fbDocs = top.map((h) => ({ text: texts.get(h.articleId) ?? "", score: h.score }));
      const extra = expansionTerms(query, fbDocs, fb.terms);
      if (extra.length === 0) return first;
      const again = await ftsSearch(db, publisherId, `${query} ${extra.join(" ")}`, opts);
      return mixRuns(first, again, fb.weight).slice(0, depth);
    },
  };
}
