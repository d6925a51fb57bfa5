/** Persistence of retrieval passages (chunks) and their embeddings. Every query takes publisherId first. */
import type { Client, InStatement } from "@libsql/client";

/** A passage as stored, without its vector. */
export interface ChunkRow {
  id: string;
  articleId: string;
  n: number;
  section: string;
  text: string;
}

/** A passage waiting for an embedding, with its article's title for context. */
export interface PendingChunk extends ChunkRow {
  title: string;
}

/** Embedding attempts after which a chunk is left alone (a provider keeps rejecting it). */
export const MAX_EMBED_ATTEMPTS = 5;

// The store-wide change sequence (see 0002_search.sql); one value per statement.
const NEXT_VSEQ = "(SELECT COALESCE(MAX(vseq), 0) + 1 FROM search_docs)";

/** Replaces an article's chunks (dropping their embeddings) and marks it chunked. */
export async function replaceChunks(
  db: Client,
  publisherId: string,
  articleId: string,
  chunks: { n: number; section: string; text: string }[],
): Promise<void> {
  await db.batch(replaceChunksStatements(publisherId, articleId, chunks), "write");
}

/** The statements of `replaceChunks`, for callers batching many articles in one transaction. */
export function replaceChunksStatements(
  publisherId: string,
  articleId: string,
  chunks: { n: number; section: string; text: string }[],
): InStatement[] {
  return [
    {
      sql: "DELETE FROM chunks WHERE publisher_id = ? AND article_id = ?",
      args: [publisherId, articleId],
    },
    ...chunks.map((c) => ({
      sql:
        "INSERT INTO chunks (id, publisher_id, article_id, n, section, text) VALUES (?, ?, ?, ?, ?, ?)",
      args: [`${articleId}#${c.n}`, publisherId, articleId, c.n, c.section, c.text],
    })),
    {
      sql: `UPDATE search_docs SET dirty = 0, vseq = ${NEXT_VSEQ}
            WHERE +publisher_id = ? AND article_id = ?`,
      args: [publisherId, articleId],
    },
  ];
}

/** Chunks without an embedding, oldest first, skipping those that failed too often. */
export async function pending(
  db: Client,
  publisherId: string,
  limit: number,
): Promise<PendingChunk[]> {
  const rs = await db.execute({
    sql: `SELECT c.id, c.article_id, c.n, c.section, c.text, a.title FROM chunks c
          JOIN articles a ON a.id = c.article_id
          WHERE c.publisher_id = ? AND c.embedding IS NULL AND c.embed_attempts < ? LIMIT ?`,
    args: [publisherId, MAX_EMBED_ATTEMPTS, limit],
  });
  return rs.rows.map((r) => ({ ...toChunk(r), title: String(r.title) }));
}

/** Stores vectors made by `embedder` and bumps the change sequence of their articles. */
export async function setEmbeddings(
  db: Client,
  publisherId: string,
  items: { id: string; vector: Float32Array }[],
  options: { embedder: string },
): Promise<void> {
  if (items.length === 0) return;
  const articles = [...new Set(items.map((i) => i.id.slice(0, i.id.lastIndexOf("#"))))];
  await db.batch([
    ...items.map((i) => ({
      sql: "UPDATE chunks SET embedding = ?, embedder = ? WHERE +publisher_id = ? AND id = ?",
      args: [toBlob(i.vector), options.embedder, publisherId, i.id],
    })),
    {
      sql: `UPDATE search_docs SET vseq = ${NEXT_VSEQ}
            WHERE +publisher_id = ? AND article_id IN (${articles.map(() => "?").join(",")})`,
      args: [publisherId, ...articles],
    },
  ], "write");
}

/** Counts a failed embedding attempt for each chunk. */
export async function markEmbedFailed(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db.execute({
    sql: `UPDATE chunks SET embed_attempts = embed_attempts + 1
          WHERE +publisher_id = ? AND id IN (${ids.map(() => "?").join(",")})`,
    args: [publisherId, ...ids],
  });
}

/** Drops every vector not made by `embedder` (after a retrain or a provider change) so it is redone. */
export async function invalidateEmbeddings(
  db: Client,
  publisherId: string,
  options: { keep: string | null },
): Promise<number> {
  const rs = await db.execute({
    sql: `UPDATE chunks SET embedding = NULL, embedder = NULL, embed_attempts = 0
          WHERE publisher_id = ? AND embedding IS NOT NULL AND embedder IS NOT ?`,
    args: [publisherId, options.keep],
  });
  return rs.rowsAffected;
}

/** Articles counted as embedded (every chunk has a vector from `embedder`) out of all articles. */
export async function coverage(
  db: Client,
  publisherId: string,
  options: { embedder: string | null },
): Promise<{ embedded: number; total: number }> {
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS total, COALESCE(SUM(
            d.dirty = 0 AND EXISTS (SELECT 1 FROM chunks c WHERE c.article_id = a.id)
            AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.article_id = a.id
              AND (c.embedding IS NULL OR c.embedder IS NOT ?))), 0) AS embedded
          FROM articles a LEFT JOIN search_docs d ON d.article_id = a.id
          WHERE a.publisher_id = ?`,
    args: [options.embedder, publisherId],
  });
  const row = rs.rows[0];
  return { embedded: options.embedder ? Number(row.embedded) : 0, total: Number(row.total) };
}

/** Chunks by id (for search result matches), in no particular order. */
export async function chunksById(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<ChunkRow[]> {
  if (ids.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT id, article_id, n, section, text FROM chunks
          WHERE +publisher_id = ? AND id IN (${ids.map(() => "?").join(",")})`,
    args: [publisherId, ...ids],
  });
  return rs.rows.map(toChunk);
}

/** All chunks of some articles, in article and passage order. */
export async function chunksOfArticles(
  db: Client,
  publisherId: string,
  articleIds: string[],
): Promise<ChunkRow[]> {
  if (articleIds.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT id, article_id, n, section, text FROM chunks
          WHERE publisher_id = ? AND article_id IN (${articleIds.map(() => "?").join(",")})
          ORDER BY article_id, n`,
    args: [publisherId, ...articleIds],
  });
  return rs.rows.map(toChunk);
}

/** A page of vectors made by `embedder`, in (article, n) order after `after` (exclusive). */
export async function vectorPage(
  db: Client,
  publisherId: string,
  options: {
    embedder: string;
    after?: { articleId: string; n: number };
    articleIds?: string[];
    limit: number;
  },
): Promise<{ articleId: string; n: number; vector: Float32Array }[]> {
  const ids = options.articleIds;
  const rs = await db.execute({
    sql: `SELECT article_id, n, embedding FROM chunks
          WHERE publisher_id = ? AND embedder = ? AND embedding IS NOT NULL
          AND (article_id, n) > (?, ?)
          ${ids ? `AND article_id IN (${ids.map(() => "?").join(",")})` : ""}
          ORDER BY article_id, n LIMIT ?`,
    args: [
      publisherId,
      options.embedder,
      options.after?.articleId ?? "",
      options.after?.n ?? -1,
      ...(ids ?? []),
      options.limit,
    ],
  });
  return rs.rows.map((r) => ({
    articleId: String(r.article_id),
    n: Number(r.n),
    vector: fromBlob(r.embedding as ArrayBuffer),
  }));
}

/** The little-endian Float32 blob of a vector. */
export function toBlob(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i], true);
  return out;
}

/** A vector from its little-endian Float32 blob. */
export function fromBlob(blob: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

// deno-lint-ignore no-explicit-any
function toChunk(r: any): ChunkRow {
  return {
    id: String(r.id),
    articleId: String(r.article_id),
    n: Number(r.n),
    section: String(r.section),
    text: String(r.text),
  };
}
