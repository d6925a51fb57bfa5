/**
 * Per-publisher LSA models kept in the store's `search_models` table, so every node folds text
 * into the same space. A model is trained on a bounded sample and retrained once the corpus has
 * grown by RETRAIN_FACTOR; the retrain drops the old vectors so the embedding loop redoes them.
 */
import type { Client } from "@libsql/client";
import { invalidateEmbeddings } from "../store/chunks.ts";
import type { Embedder } from "./embedder.ts";
import { deserializeLsa, embedLsa, type LsaModel, type LsaOptions, serializeLsa } from "./lsa.ts";
import { trainSample } from "./train.ts";
import type { TrainerCommand } from "./trainer.ts";

/** Documents sampled for training: bounds training time whatever the corpus size. */
export const TRAIN_SAMPLE = 20_000;
/** Articles read from the store at a time while training. */
const TRAIN_PAGE = 25;
/** Retrain when the publisher has this many times the articles the model was trained on. */
export const RETRAIN_FACTOR = 2;

/** A loaded model and the embedder that folds text in with it. */
export interface LoadedModel {
  model: LsaModel;
  embedder: Embedder;
}

/** The embedder for a model: its id is what chunks.embedder records. */
export function lsaEmbedder(model: LsaModel, id: string): Embedder {
  return {
    id,
    dims: model.dims,
    embed: (texts) => Promise.resolve(texts.map((t) => embedLsa(model, t))),
  };
}

/** The stored model's embedder id, or null; a cheap check for whether a cached model is current. */
export async function currentModelId(db: Client, publisherId: string): Promise<string | null> {
  const rs = await db.execute({
    sql: "SELECT embedder FROM search_models WHERE publisher_id = ?",
    args: [publisherId],
  });
  return rs.rows[0] ? String(rs.rows[0].embedder) : null;
}

/** Loads the publisher's stored model, or null when none was trained yet. */
export async function loadModel(db: Client, publisherId: string): Promise<LoadedModel | null> {
  const rs = await db.execute({
    sql: "SELECT embedder, model FROM search_models WHERE publisher_id = ?",
    args: [publisherId],
  });
  const row = rs.rows[0];
  if (!row) return null;
  const model = deserializeLsa(new Uint8Array(row.model as ArrayBuffer));
  return { model, embedder: lsaEmbedder(model, String(row.embedder)) };
}

/** True when the publisher has no model or has outgrown it. */
export async function needsTraining(
  db: Client,
  publisherId: string,
): Promise<boolean> {
  const rs = await db.execute({
    sql: `SELECT (SELECT COUNT(*) FROM articles WHERE publisher_id = ?) AS n,
            (SELECT docs FROM search_models WHERE publisher_id = ?) AS docs`,
    args: [publisherId, publisherId],
  });
  const n = Number(rs.rows[0].n);
  const docs = rs.rows[0].docs;
  if (n === 0) return false;
  return docs === null || n >= RETRAIN_FACTOR * Number(docs);
}

/** Trains and stores a new model from a sample of the publisher's articles; returns it. */
export async function trainModel(
  db: Client,
  publisherId: string,
  options: { now: Date; lsa?: LsaOptions; trainer?: TrainerCommand },
): Promise<LoadedModel | null> {
  const before = await db.execute({
    sql: `SELECT (SELECT version FROM search_models WHERE publisher_id = ?) AS version,
            (SELECT COUNT(*) FROM articles WHERE publisher_id = ?) AS n`,
    args: [publisherId, publisherId],
  });
  const oldVersion = before.rows[0].version === null ? 0 : Number(before.rows[0].version);
  const total = Number(before.rows[0].n);
  const sample = await db.execute({
    sql: "SELECT rowid AS r FROM articles WHERE publisher_id = ? ORDER BY random() LIMIT ?",
    args: [publisherId, TRAIN_SAMPLE],
  });
  if (sample.rows.length === 0) return null;
  // In rowid order, as one query over the whole sample read them.
  const rowids = sample.rows.map((r) => Number(r.r)).sort((a, b) => a - b);
  const model = await trainSample(
    { pages: samplePages(db, publisherId, rowids) },
    { ...options.lsa, version: oldVersion + 1 },
    options.trainer,
  );
  model.docs = total;
  const id = `lsa:${model.version}:${options.now.getTime().toString(36)}`;
  // Only the node that still sees the old version wins; a rival trainer's model stands instead.
  const write = await db.execute({
    sql: `INSERT INTO search_models (publisher_id, embedder, version, docs, model, created_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (publisher_id) DO UPDATE SET embedder = excluded.embedder,
            version = excluded.version, docs = excluded.docs, model = excluded.model,
            created_at = excluded.created_at
          WHERE search_models.version = ?`,
    args: [
      publisherId,
      id,
      model.version,
      total,
      serializeLsa(model),
      options.now.getTime(),
      oldVersion,
    ],
  });
  if (write.rowsAffected === 0) return loadModel(db, publisherId);
  await invalidateEmbeddings(db, publisherId, { keep: id });
  return { model, embedder: lsaEmbedder(model, id) };
}

/** The sample's texts a page at a time: a 10 MB book's chapters are never all in memory. */
async function* samplePages(
  db: Client,
  publisherId: string,
  rowids: number[],
): AsyncGenerator<string[]> {
  for (let i = 0; i < rowids.length; i += TRAIN_PAGE) {
    const page = rowids.slice(i, i + TRAIN_PAGE);
    const rs = await db.execute({
      sql: `SELECT title, summary, tags, body FROM articles
            WHERE publisher_id = ? AND rowid IN (${page.map(() => "?").join(",")}) ORDER BY rowid`,
      args: [publisherId, ...page],
    });
    yield rs.rows.map((r) => `${r.title}\n${r.summary}\n${tagText(r.tags)}\n${r.body}`);
  }
}

function tagText(tags: unknown): string {
  try {
    const list = JSON.parse(String(tags));
    return Array.isArray(list) ? list.join(" ") : "";
  } catch {
    return "";
  }
}
