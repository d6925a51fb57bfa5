/**
 * Per-publisher search models (`search_models`, one row per publisher: the embedder id, the
 * serialized model, its version and the article count it was trained on) and the sample of
 * articles a model is trained from. search/models.ts decides when to train and what a model is.
 */
import type { Client } from "@libsql/client";

/** The stored model's embedder id, or null. */
export async function currentModelId(db: Client, publisherId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT embedder FROM search_models WHERE publisher_id = ?",
    args: [publisherId],
  });
  return rs.rows[0] ? String(rs.rows[0].embedder) : null;
}

/** The stored model: its embedder id and serialized bytes, or null when none was trained. */
export async function storedModel(
  db: Client,
  publisherId: string,
): Promise<{ embedder: string; model: Uint8Array } | null> {
  const rs = await db.execute({
    sql: "SELECT embedder, model FROM search_models WHERE publisher_id = ?",
    args: [publisherId],
  });
  const row = rs.rows[0];
  if (!row) return null;
  return { embedder: String(row.embedder), model: new Uint8Array(row.model as ArrayBuffer) };
}

/**
 * The publisher's article count and, about its model, the version and the article count it was
 * trained on (null without a model).
 */
export async function modelStanding(
  db: Client,
  publisherId: string,
): Promise<{ articles: number; version: number | null; docs: number | null }> {
  const rs = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM articles WHERE publisher_id = ?) AS n,
            (SELECT version FROM search_models WHERE publisher_id = ?) AS version,
            (SELECT docs FROM search_models WHERE publisher_id = ?) AS docs`,
    args: [publisherId, publisherId, publisherId],
  });
  const row = rs.rows[0];
  return {
    articles: Number(row.n),
    version: row.version === null ? null : Number(row.version),
    docs: row.docs === null ? null : Number(row.docs),
  };
}

/** Rowids of up to `size` of the publisher's articles chosen at random, in rowid order. */
export async function sampleRowids(
  db: Client,
  publisherId: string,
  size: number,
): Promise<number[]> {
  const rs = await db.execute({
    sql: "SELECT rowid AS r FROM articles WHERE publisher_id = ? ORDER BY random() LIMIT ?",
    args: [publisherId, size],
  });
  return rs.rows.map((r) => Number(r.r)).sort((a, b) => a - b);
}

/** Title, summary, tags (the stored JSON) and body of the articles with these rowids, in order. */
export async function sampleTexts(
  db: Client,
  publisherId: string,
  rowids: number[],
): Promise<{ title: string; summary: string; tags: string; body: string }[]> {
  if (rowids.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT title, summary, tags, body FROM articles
          WHERE publisher_id = ? AND rowid IN (${rowids.map(() => "?").join(",")}) ORDER BY rowid`,
    args: [publisherId, ...rowids],
  });
  return rs.rows.map((r) => ({
    title: String(r.title),
    summary: String(r.summary),
    tags: String(r.tags),
    body: String(r.body),
  }));
}

/**
 * Stores a model unless another node replaced version `oldVersion` first; true when written
 * (a rival trainer's model stands otherwise).
 */
export async function saveModel(
  db: Client,
  publisherId: string,
  model: { embedder: string; version: number; docs: number; bytes: Uint8Array; at: Date },
  oldVersion: number,
): Promise<boolean> {
  const write = await db.execute({
    sql: `INSERT INTO search_models (publisher_id, embedder, version, docs, model, created_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (publisher_id) DO UPDATE SET embedder = excluded.embedder,
            version = excluded.version, docs = excluded.docs, model = excluded.model,
            created_at = excluded.created_at
          WHERE search_models.version = ?`,
    args: [
      publisherId,
      model.embedder,
      model.version,
      model.docs,
      model.bytes,
      model.at.getTime(),
      oldVersion,
    ],
  });
  return write.rowsAffected > 0;
}
