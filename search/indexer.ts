/** Keeping derived state current: re-chunking changed articles and embedding pending chunks. */
import type { Client, InStatement } from "@libsql/client";
import {
  chunksOfArticles,
  markEmbedFailed,
  pending,
  replaceChunksStatements,
  setEmbeddings,
} from "../store/chunks.ts";
import {
  articleSizes,
  type ArticleText,
  articleTexts,
  markCleanStatement,
} from "../store/search_index.ts";
import { eventLoopTurns, sharedTurn } from "../store/turns.ts";
import { chunkArticle } from "./chunker.ts";
import type { Embedder } from "./embedder.ts";

/** Chunks embedded per provider call. */
export const EMBED_BATCH = 128;

/** The text a chunk is embedded as: its title and section give the passage its context. */
export function embedText(c: { title: string; section: string; text: string }): string {
  return c.section && c.section !== c.title
    ? `${c.title}\n${c.section}\n${c.text}`
    : `${c.title}\n${c.text}`;
}

/**
 * Text re-chunked per write: a slice's bodies, chunks and statements are held together until its
 * batch is written, and 200 dirty book chapters at once (7 MB) held that many times over. Each
 * slice is also chunked and written in one stretch of the serving thread: 256 KB took 100-170 ms
 * of it during a 10 MB book's import (issue 39), so a slice is a quarter of that.
 */
export const RECHUNK_BYTES = 64 * 1024;

/**
 * Re-chunks articles (or drops chunks of deleted ones); unchanged passages keep their vectors.
 * Works through the ids in slices of about RECHUNK_BYTES of text, one write batch each; their
 * sizes come first from `octet_length`, which SQLite answers without reading the text. Returns
 * the ids whose chunks changed.
 */
export async function rechunk(
  db: Client,
  publisherId: string,
  articleIds: string[],
): Promise<string[]> {
  if (articleIds.length <= 1) return await rechunkSlice(db, publisherId, articleIds);
  const size = await articleSizes(db, publisherId, articleIds);
  const turn = eventLoopTurns();
  const changed: string[] = [];
  let slice: string[] = [];
  let bytes = 0;
  for (const id of articleIds) {
    slice.push(id);
    bytes += size.get(id) ?? 0;
    if (bytes < RECHUNK_BYTES) continue;
    changed.push(...await rechunkSlice(db, publisherId, slice));
    await turn();
    slice = [];
    bytes = 0;
  }
  if (slice.length > 0) changed.push(...await rechunkSlice(db, publisherId, slice));
  return changed;
}

/** Re-chunks a slice of articles in one write batch. */
async function rechunkSlice(
  db: Client,
  publisherId: string,
  articleIds: string[],
): Promise<string[]> {
  if (articleIds.length === 0) return [];
  const rows = await articleTexts(db, publisherId, articleIds);
  const existing = new Map<string, string>();
  for (const c of await chunksOfArticles(db, publisherId, articleIds)) {
    existing.set(
      c.articleId,
      `${existing.get(c.articleId) ?? ""}${c.n}\u0000${c.section}\u0000${c.text}\u0001`,
    );
  }
  const statements: InStatement[] = [];
  const changed: string[] = [];
  for (const r of rows) {
    const id = r.id;
    const chunks = chunkArticle(id, searchText(r));
    const key = chunks.map((c) => `${c.n}\u0000${c.section}\u0000${c.text}\u0001`).join("");
    if (key === (existing.get(id) ?? "")) {
      statements.push(markCleanStatement(publisherId, id));
    } else {
      statements.push(...replaceChunksStatements(publisherId, id, chunks));
      changed.push(id);
    }
  }
  const found = new Set(rows.map((r) => r.id));
  for (const id of articleIds) {
    if (found.has(id)) continue;
    // Deleted: chunks went with the article (ON DELETE CASCADE); clear any leftovers and the flag.
    statements.push(...replaceChunksStatements(publisherId, id, []));
    changed.push(id);
  }
  await db.batch(statements, "write");
  return changed;
}

/** The text an article is chunked as: a body-less one (a stub, a summary-only import) is still findable. */
export function searchText(a: ArticleText): string {
  return a.body.trim() || a.summary.trim() || a.title;
}

/** Embeds up to `max` pending chunks of a publisher with `embedder`; returns how many. */
export async function embedBatch(
  db: Client,
  publisherId: string,
  options: { embedder: Embedder; max: number },
): Promise<number> {
  let done = 0;
  while (done < options.max) {
    const rows = await pending(db, publisherId, Math.min(EMBED_BATCH, options.max - done));
    if (rows.length === 0) break;
    let vectors: Float32Array[];
    try {
      vectors = await options.embedder.embed(rows.map(embedText));
    } catch (err) {
      await markEmbedFailed(db, publisherId, rows.map((r) => r.id));
      throw err;
    }
    await setEmbeddings(db, publisherId, rows.map((r, i) => ({ id: r.id, vector: vectors[i] })), {
      embedder: options.embedder.id,
    });
    done += rows.length;
    // Yield between batches: embedding is CPU work on the same thread that answers queries.
    await sharedTurn();
  }
  return done;
}
