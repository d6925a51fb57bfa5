/**
 * Per-publisher vector indexes in memory: loaded from a snapshot in the data directory (fast
 * restart) or from the chunks table, then kept current from the store's change sequence at most
 * once per second, so changes made by other nodes show up without a restart (docs/DESIGN.md 9).
 */
import type { Client } from "@libsql/client";
import { vectorPage } from "../store/chunks.ts";
import { changedSince, maxSeq } from "../store/search_index.ts";
import { VectorIndex } from "./vector_index.ts";

/** Minimum time between two freshness checks of one publisher's index. */
export const CHECK_INTERVAL_MS = 1000;
/** More changed articles than this since the index's sequence: reload instead of patching. */
const PATCH_LIMIT = 5000;
const PAGE = 20_000;
/**
 * Vectors read from the store past which a load is worth giving memory back after: loading four
 * books' 50,000 vectors lifted the server by 104 MB, of which a collection and a trim returned 84
 * (docs/PERFORMANCE.md, "memory given back after a book's import").
 */
export const LARGE_LOAD = 10_000;

interface Slot {
  index: VectorIndex;
  checkedAt: number;
  /** Changes not yet in the snapshot file. */
  unsaved: boolean;
}

/** Loads, refreshes and snapshots vector indexes. */
export class IndexCache {
  #slots = new Map<string, Slot>();
  #loading = new Map<string, Promise<VectorIndex>>();
  /** Vectors read from the store since `afterLoads` was last called. */
  #readSinceRelease = 0;

  constructor(
    readonly db: Client,
    readonly dataDir: string | null,
    readonly clock: () => number = Date.now,
    /** Called once loads and refreshes have read this many vectors (the service gives memory back). */
    readonly afterLoads?: { vectors: number; call: () => void },
  ) {}

  /** After a load or refresh (and its snapshot): what it read and wrote is garbage now. */
  #afterLoad(): void {
    if (!this.afterLoads || this.#readSinceRelease < this.afterLoads.vectors) return;
    this.#readSinceRelease = 0;
    this.afterLoads.call();
  }

  /** The current index for a publisher's embedder, loading or refreshing it as needed. */
  async get(publisherId: string, embedder: { id: string; dims: number }): Promise<VectorIndex> {
    const slot = this.#slots.get(publisherId);
    if (slot && slot.index.embedder === embedder.id) {
      if (this.clock() - slot.checkedAt >= CHECK_INTERVAL_MS) {
        slot.checkedAt = this.clock();
        const fresh = await this.#refresh(publisherId, slot.index);
        if (fresh) Object.assign(slot, { index: fresh, unsaved: true });
        this.#afterLoad();
      }
      return slot.index;
    }
    const key = `${publisherId}\n${embedder.id}`;
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#load(publisherId, embedder).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    const index = await loading;
    this.#afterLoad();
    return index;
  }

  /** Makes the next `get` check the store for changes (after this process changed something). */
  touch(publisherId: string): void {
    const slot = this.#slots.get(publisherId);
    if (slot) slot.checkedAt = 0;
  }

  /** Makes the next `get` of every publisher check the store for changes. */
  touchAll(): void {
    for (const slot of this.#slots.values()) slot.checkedAt = 0;
  }

  /** Forgets a publisher's index and deletes its snapshot. */
  async drop(publisherId: string): Promise<void> {
    this.#slots.delete(publisherId);
    const path = this.#path(publisherId);
    if (path) await Deno.remove(path).catch(() => {});
  }

  /** Writes snapshots of indexes changed since they were last saved. */
  async save(): Promise<void> {
    for (const [publisherId, slot] of this.#slots) {
      if (slot.unsaved) {
        slot.unsaved = false;
        await this.#write(publisherId, slot.index);
      }
    }
  }

  async #load(publisherId: string, embedder: { id: string; dims: number }): Promise<VectorIndex> {
    let index = await this.#read(publisherId);
    let unsaved = false;
    if (index && index.embedder === embedder.id) {
      const fresh = await this.#refresh(publisherId, index);
      if (fresh) [index, unsaved] = [fresh, true];
    } else {
      index = await this.#full(publisherId, embedder);
      unsaved = true;
    }
    this.#slots.set(publisherId, { index, checkedAt: this.clock(), unsaved: false });
    if (unsaved) await this.#write(publisherId, index);
    return index;
  }

  // Reads the sequence first: anything committed during the load is newer and refreshed later.
  async #full(publisherId: string, embedder: { id: string; dims: number }): Promise<VectorIndex> {
    const index = new VectorIndex(embedder.id, embedder.dims);
    index.vseq = await maxSeq(this.db, publisherId);
    let after: { articleId: string; n: number } | undefined;
    type Pending = { id: string; chunks: { n: number; vector: Float32Array }[] };
    let current = null as Pending | null;
    let vectors = 0;
    for (;;) {
      const page = await vectorPage(this.db, publisherId, {
        embedder: embedder.id,
        after,
        limit: PAGE,
      });
      vectors += page.length;
      for (const row of page) {
        if (current?.id !== row.articleId) {
          if (current) index.set(current.id, current.chunks);
          current = { id: row.articleId, chunks: [] };
        }
        current.chunks.push({ n: row.n, vector: row.vector });
      }
      if (page.length < PAGE) break;
      after = { articleId: page[page.length - 1].articleId, n: page[page.length - 1].n };
    }
    if (current) index.set(current.id, current.chunks);
    this.#readSinceRelease += vectors;
    return index;
  }

  /** Applies changes since the index's sequence; the updated index, or null when nothing changed. */
  async #refresh(publisherId: string, index: VectorIndex): Promise<VectorIndex | null> {
    const seq = await maxSeq(this.db, publisherId);
    if (seq <= index.vseq) return null;
    const ids = await changedSince(this.db, publisherId, index.vseq, PATCH_LIMIT + 1);
    if (ids.length > PATCH_LIMIT) {
      return await this.#full(publisherId, { id: index.embedder, dims: index.dims });
    }
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      const rows = await vectorPage(this.db, publisherId, {
        embedder: index.embedder,
        articleIds: batch,
        limit: 1_000_000,
      });
      const byArticle = new Map<string, { n: number; vector: Float32Array }[]>(
        batch.map((id) => [id, []]),
      );
      this.#readSinceRelease += rows.length;
      for (const r of rows) byArticle.get(r.articleId)?.push({ n: r.n, vector: r.vector });
      for (const [id, chunks] of byArticle) index.set(id, chunks);
    }
    index.vseq = seq;
    return index;
  }

  #path(publisherId: string): string | null {
    if (!this.dataDir) return null;
    return `${this.dataDir}/search/${encodeURIComponent(publisherId)}.vectors`;
  }

  async #read(publisherId: string): Promise<VectorIndex | null> {
    const path = this.#path(publisherId);
    if (!path) return null;
    try {
      return VectorIndex.deserialize(await Deno.readFile(path));
    } catch {
      return null; // missing or unreadable: rebuilt from the store
    }
  }

  // Written beside the target and renamed, so a crash never leaves a half snapshot.
  async #write(publisherId: string, index: VectorIndex): Promise<void> {
    const path = this.#path(publisherId);
    if (!path) return;
    await Deno.mkdir(`${this.dataDir}/search`, { recursive: true });
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeFile(tmp, index.serialize());
    await Deno.rename(tmp, path);
  }
}
