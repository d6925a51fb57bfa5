/**
 * The semantic leg's in-memory index for one publisher. Each article keeps its chunk vectors as
 * int8 (a quarter of Float32's memory) plus a Float32 article vector (the normalised mean of its
 * chunks). A query scans article vectors (cost: articles × dims; in WebAssembly SIMD over int8
 * copies, exact for the rows that can rank, when the dimensions are a multiple of 4:
 * search/dot_scan.ts), then rescores only the best candidates' chunks, so the chunk count per
 * article does not drive latency.
 */
import { DotScanner } from "./dot_scan.ts";

/** Chunk vectors, quantised: chunk numbers, one scale each, and `dims` int8 values each. */
interface Block {
  ns: Int32Array;
  scales: Float32Array;
  q: Int8Array;
}

/**
 * One article's chunks: `count` of them from `at` in a block. A snapshot loads as one block
 * shared by every article (views into the file's bytes), so an article costs one small object,
 * not three typed arrays: at a million articles those were 740 MB of heap and as much again of
 * backing stores (docs/decisions/search.md, "Caches and threads").
 */
interface Entry {
  block: Block;
  at: number;
  count: number;
}

/** A semantic hit: the article, its fused similarity and its best chunk. */
export interface VectorHit {
  articleId: string;
  score: number;
  n: number;
}

/** Articles a first pass kept for a second (their slots in the index that made them). */
export type VectorPool = Int32Array<ArrayBufferLike>;

const FORMAT = "folio-vectors/1";

/** Chunk vectors of one publisher made by one embedder. */
export class VectorIndex {
  /** The store change sequence this index reflects (see 0002_search.sql). */
  vseq = 0;
  #ids: string[] = [];
  #slots = new Map<string, number>();
  #free: number[] = [];
  #entries: (Entry | undefined)[] = [];
  #art = new Float32Array(0);
  /** Holds the article vectors (as #art) when it can scan them; else #art is a plain array. */
  #scanner: DotScanner | null;

  constructor(readonly embedder: string, readonly dims: number) {
    this.#scanner = dims > 0 && dims % 4 === 0 ? new DotScanner(dims) : null;
  }

  /** Articles with vectors. */
  get size(): number {
    return this.#slots.size;
  }

  /** Replaces an article's vectors; none removes it. */
  set(articleId: string, chunks: { n: number; vector: Float32Array }[]): void {
    const usable = chunks.filter((c) => c.vector.length === this.dims);
    if (usable.length === 0) return this.remove(articleId);
    const d = this.dims;
    const block: Block = {
      ns: Int32Array.from(usable, (c) => c.n),
      scales: new Float32Array(usable.length),
      q: new Int8Array(usable.length * d),
    };
    usable.forEach((c, i) => {
      let max = 0;
      for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(c.vector[j]));
      const scale = max / 127 || 1;
      block.scales[i] = scale;
      for (let j = 0; j < d; j++) block.q[i * d + j] = Math.round(c.vector[j] / scale);
    });
    this.#put(articleId, { block, at: 0, count: usable.length });
  }

  /** Drops an article. */
  remove(articleId: string): void {
    const slot = this.#slots.get(articleId);
    if (slot === undefined) return;
    this.#slots.delete(articleId);
    this.#entries[slot] = undefined;
    this.#art.fill(0, slot * this.dims, (slot + 1) * this.dims);
    this.#scanner?.quantize(slot);
    this.#free.push(slot);
  }

  /** The article's vector (normalised mean of its chunks), or null when it has none here. */
  articleVector(articleId: string): Float32Array | null {
    const slot = this.#slots.get(articleId);
    if (slot === undefined) return null;
    return this.#art.slice(slot * this.dims, (slot + 1) * this.dims);
  }

  /** True when the article has vectors here. */
  has(articleId: string): boolean {
    return this.#slots.has(articleId);
  }

  /** Best articles for a normalised query vector, scored 0.5 × article + 0.5 × best chunk cosine. */
  search(query: Float32Array, options: { candidates: number; minScore: number }): VectorHit[] {
    return this.searchPooled(query, { ...options, pool: 0 }).hits;
  }

  /**
   * `search()`, also keeping about `pool` articles nearest by article vector (exactly those in the
   * plain scan; by their int8 lower bounds, at least that many, with the SIMD scanner); with
   * `among`, only those articles are scanned. A second pass for a nearby query (Rocchio's)
   * re-ranks the first pass's pool instead of scanning every article again. A pool is slots: an
   * article replaced in between is scored in its place, which only widens what is considered.
   */
  searchPooled(
    query: Float32Array,
    options: { candidates: number; minScore: number; pool: number; among?: VectorPool },
  ): { hits: VectorHit[]; pool: VectorPool } {
    const d = this.dims;
    const none: VectorPool = new Int32Array(0);
    if (query.length !== d || this.size === 0) return { hits: [], pool: none };
    const art = this.#art;
    const among = options.among;
    const n = this.#entries.length;
    let top: TopK;
    let pool = none;
    if (this.#scanner) {
      top = new TopK(options.candidates);
      const found = among
        ? { slots: among, scores: this.#scanner.dots(query, among), pool }
        : this.#scanner.nearest(query, n, options.candidates, options.pool);
      for (let i = 0; i < found.scores.length; i++) top.push(found.scores[i], found.slots[i]);
      pool = found.pool;
    } else {
      top = new TopK(Math.max(options.candidates, options.pool));
      const count = among ? among.length : n;
      for (let k = 0; k < count; k++) {
        const s = among ? among[k] : k;
        const base = s * d;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        let j = 0;
        for (; j + 3 < d; j += 4) {
          a0 += art[base + j] * query[j];
          a1 += art[base + j + 1] * query[j + 1];
          a2 += art[base + j + 2] * query[j + 2];
          a3 += art[base + j + 3] * query[j + 3];
        }
        for (; j < d; j++) a0 += art[base + j] * query[j];
        top.push(a0 + a1 + a2 + a3, s);
      }
    }
    const hits: VectorHit[] = [];
    const ranked = top.sorted();
    for (const [artScore, slot] of ranked.slice(0, options.candidates)) {
      const entry = this.#entries[slot];
      if (!entry) continue;
      const best = this.#bestChunk(entry, query);
      const score = 0.5 * artScore + 0.5 * best.score;
      if (score > options.minScore) hits.push({ articleId: this.#ids[slot], score, n: best.n });
    }
    if (!this.#scanner && options.pool > 0) {
      pool = Int32Array.from(ranked.slice(0, options.pool), ([, slot]) => slot)
        .filter((slot) => this.#entries[slot] !== undefined);
    }
    return { hits: hits.sort((x, y) => y.score - x.score), pool };
  }

  /** The ids of a pool's articles (for tests and tools). */
  poolIds(pool: VectorPool): string[] {
    return Array.from(pool, (slot) => this.#entries[slot] ? this.#ids[slot] : null)
      .filter((id) => id !== null);
  }

  /** Cosine of each of an article's chunks with the query, best first. */
  chunkScores(articleId: string, query: Float32Array): { n: number; score: number }[] {
    const slot = this.#slots.get(articleId);
    const entry = slot === undefined ? undefined : this.#entries[slot];
    if (!entry || query.length !== this.dims) return [];
    return Array.from({ length: entry.count }, (_, i) => ({
      n: entry.block.ns[entry.at + i],
      score: this.#chunkDot(entry, i, query),
    })).sort((a, b) => b.score - a.score);
  }

  /** A snapshot of the index for the data directory. */
  serialize(): Uint8Array {
    const ids = [...this.#slots.keys()];
    const entries = ids.map((id) => this.#entries[this.#slots.get(id)!]!);
    const counts = entries.map((e) => e.count);
    const chunks = counts.reduce((a, b) => a + b, 0);
    const header = new TextEncoder().encode(
      JSON.stringify({
        format: FORMAT,
        embedder: this.embedder,
        dims: this.dims,
        vseq: this.vseq,
        ids,
        counts,
      }),
    );
    const start = Math.ceil((4 + header.length) / 4) * 4;
    const out = new Uint8Array(start + chunks * (8 + this.dims));
    new DataView(out.buffer).setUint32(0, header.length, true);
    out.set(header, 4);
    const ns = new Int32Array(out.buffer, start, chunks);
    const scales = new Float32Array(out.buffer, start + 4 * chunks, chunks);
    const q = new Int8Array(out.buffer, start + 8 * chunks, chunks * this.dims);
    let at = 0;
    const d = this.dims;
    for (const { block, at: from, count } of entries) {
      ns.set(block.ns.subarray(from, from + count), at);
      scales.set(block.scales.subarray(from, from + count), at);
      q.set(block.q.subarray(from * d, (from + count) * d), at * d);
      at += count;
    }
    return out;
  }

  /** An index from `serialize()` bytes; throws on a foreign or truncated snapshot. */
  static deserialize(bytes: Uint8Array): VectorIndex {
    const copy = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    const len = new DataView(copy.buffer, copy.byteOffset).getUint32(0, true);
    const h = JSON.parse(new TextDecoder().decode(copy.subarray(4, 4 + len)));
    if (h.format !== FORMAT) throw new Error(`Cannot read vector snapshot: format ${h.format}`);
    const chunks = (h.counts as number[]).reduce((a, b) => a + b, 0);
    const start = copy.byteOffset + Math.ceil((4 + len) / 4) * 4;
    if (copy.byteLength < start - copy.byteOffset + chunks * (8 + h.dims)) {
      throw new Error("Cannot read vector snapshot: truncated");
    }
    const block: Block = {
      ns: new Int32Array(copy.buffer, start, chunks),
      scales: new Float32Array(copy.buffer, start + 4 * chunks, chunks),
      q: new Int8Array(copy.buffer, start + 8 * chunks, chunks * h.dims),
    };
    const index = new VectorIndex(h.embedder, h.dims);
    index.vseq = h.vseq;
    let at = 0;
    (h.ids as string[]).forEach((id, i) => {
      const count = h.counts[i];
      index.#put(id, { block, at, count });
      at += count;
    });
    return index;
  }

  #put(articleId: string, entry: Entry): void {
    let slot = this.#slots.get(articleId);
    if (slot === undefined) {
      slot = this.#free.pop() ?? this.#entries.length;
      this.#slots.set(articleId, slot);
      this.#ids[slot] = articleId;
    }
    this.#entries[slot] = entry;
    const d = this.dims;
    if (this.#scanner) {
      this.#scanner.reserve(slot + 1);
      this.#art = this.#scanner.rows;
    } else if (this.#art.length < (slot + 1) * d) {
      const grown = new Float32Array(Math.max((slot + 1) * d, this.#art.length * 2, 64 * d));
      grown.set(this.#art);
      this.#art = grown;
    }
    // The article vector: normalised mean of the dequantised chunk vectors.
    const mean = new Float64Array(d);
    const { block, at } = entry;
    for (let i = at; i < at + entry.count; i++) {
      const s = block.scales[i];
      for (let j = 0; j < d; j++) mean[j] += block.q[i * d + j] * s;
    }
    let norm = 0;
    for (let j = 0; j < d; j++) norm += mean[j] * mean[j];
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < d; j++) this.#art[slot * d + j] = mean[j] / norm;
    this.#scanner?.quantize(slot);
  }

  #bestChunk(entry: Entry, query: Float32Array): { n: number; score: number } {
    let best = -Infinity;
    let n = entry.block.ns[entry.at];
    for (let i = 0; i < entry.count; i++) {
      const s = this.#chunkDot(entry, i, query);
      if (s > best) [best, n] = [s, entry.block.ns[entry.at + i]];
    }
    return { n, score: best };
  }

  #chunkDot(entry: Entry, i: number, query: Float32Array): number {
    const d = this.dims;
    const { q, scales } = entry.block;
    const base = (entry.at + i) * d;
    let sum = 0;
    for (let j = 0; j < d; j++) sum += q[base + j] * query[j];
    return sum * scales[entry.at + i];
  }
}

/** The k largest (score, id) pairs seen, by a min-heap. */
class TopK {
  #scores: Float64Array;
  #ids: Int32Array;
  #n = 0;
  constructor(readonly k: number) {
    this.#scores = new Float64Array(k);
    this.#ids = new Int32Array(k);
  }
  push(score: number, id: number): void {
    const s = this.#scores;
    const ids = this.#ids;
    if (this.#n < this.k) {
      let i = this.#n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (s[p] <= score) break;
        s[i] = s[p];
        ids[i] = ids[p];
        i = p;
      }
      s[i] = score;
      ids[i] = id;
      return;
    }
    if (this.k === 0 || score <= s[0]) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.k) break;
      const c = l + 1 < this.k && s[l + 1] < s[l] ? l + 1 : l;
      if (s[c] >= score) break;
      s[i] = s[c];
      ids[i] = ids[c];
      i = c;
    }
    s[i] = score;
    ids[i] = id;
  }
  sorted(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.#n; i++) out.push([this.#scores[i], this.#ids[i]]);
    return out.sort((a, b) => b[0] - a[0]);
  }
}
