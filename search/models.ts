/**
 * Per-publisher LSA models kept in the store's `search_models` table, so every node folds text
 * into the same space. A model is trained on a bounded sample and retrained once the corpus has
 * grown by RETRAIN_FACTOR; the retrain drops the old vectors so the embedding loop redoes them.
 */
import type { Client } from "@libsql/client";
import { invalidateEmbeddings } from "../store/chunks.ts";
import {
  modelStanding,
  sampleRowids,
  sampleTexts,
  saveModel,
  storedModel,
} from "../store/search_models.ts";
import { eventLoopTurns } from "../store/turns.ts";
import type { Embedder } from "./embedder.ts";
import { deserializeLsa, embedLsa, type LsaModel, type LsaOptions } from "./lsa.ts";
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
    // Folding in runs on the serving thread: 128 passages took 70-105 ms of it in one stretch,
    // so requests get a turn every 20 ms of it (issue 39).
    embed: async (texts) => {
      const turn = eventLoopTurns();
      const out: Float32Array[] = [];
      for (const t of texts) {
        out.push(embedLsa(model, t));
        await turn();
      }
      return out;
    },
  };
}

/** Loads the publisher's stored model, or null when none was trained yet. */
export async function loadModel(db: Client, publisherId: string): Promise<LoadedModel | null> {
  const stored = await storedModel(db, publisherId);
  if (!stored) return null;
  const model = deserializeLsa(stored.model);
  return { model, embedder: lsaEmbedder(model, stored.embedder) };
}

/** True when the publisher has no model or has outgrown it. */
export async function needsTraining(
  db: Client,
  publisherId: string,
): Promise<boolean> {
  const { articles, docs } = await modelStanding(db, publisherId);
  if (articles === 0) return false;
  return docs === null || articles >= RETRAIN_FACTOR * docs;
}

/** Trains and stores a new model from a sample of the publisher's articles; returns it. */
export async function trainModel(
  db: Client,
  publisherId: string,
  options: { now: Date; lsa?: LsaOptions; trainer?: TrainerCommand },
): Promise<LoadedModel | null> {
  const before = await modelStanding(db, publisherId);
  const oldVersion = before.version ?? 0;
  const total = before.articles;
  // In rowid order, as one query over the whole sample read them.
  const rowids = await sampleRowids(db, publisherId, TRAIN_SAMPLE);
  if (rowids.length === 0) return null;
  const { model, bytes } = await trainSample(
    { pages: samplePages(db, publisherId, rowids) },
    { ...options.lsa, version: oldVersion + 1, docs: total },
    options.trainer,
  );
  const id = `lsa:${model.version}:${options.now.getTime().toString(36)}`;
  // Only the node that still sees the old version wins; a rival trainer's model stands instead.
  const saved = { embedder: id, version: model.version, docs: total, bytes, at: options.now };
  if (!await saveModel(db, publisherId, saved, oldVersion)) return loadModel(db, publisherId);
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
    const rows = await sampleTexts(db, publisherId, rowids.slice(i, i + TRAIN_PAGE));
    yield rows.map((r) => `${r.title}\n${r.summary}\n${tagText(r.tags)}\n${r.body}`);
  }
}

function tagText(tags: string): string {
  try {
    const list = JSON.parse(tags);
    return Array.isArray(list) ? list.join(" ") : "";
  } catch {
    return "";
  }
}
