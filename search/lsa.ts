/**
 * The built-in embedder's model: latent semantic analysis trained on a publisher's own corpus.
 * Log-entropy term weights (sublinear tf times each term's global weight; stop words removed,
 * Porter stems like the FTS tokenizer), then a truncated SVD; new text is folded in through the
 * learned term projection. Log-entropy is the weighting Dumais (1991) found best for LSA; against
 * TF-IDF it lifted the semantic leg on eight of nine evaluation collections, most on catalogs of
 * short pieces (docs/decisions/search.md, "Log-entropy weights").
 */
import { type Csr, truncatedSvd } from "./svd.ts";
import { terms } from "./text.ts";

/** A trained LSA model. */
export interface LsaModel {
  /** Increments each time the publisher's model is retrained. */
  version: number;
  dims: number;
  /** Documents the model was trained on (the corpus size decides when to retrain). */
  docs: number;
  vocab: string[];
  index: Map<string, number>;
  /**
   * Each term's global weight, `1 + Σ p·log p / log n` over the documents it occurs in (p: the
   * share of its occurrences in each): 1 for a term in one document, near 0 for one spread evenly.
   */
  weight: Float32Array;
  /**
   * vocab × dims, row-major: V Σ^(sigmaPower - 1), so a fold-in lands in scaled latent space.
   * Stored as int16 with one scale per term (`proj[t·dims + j] · scale[t]`): a node keeps a model
   * per publisher, and at 128 dimensions a 40k-term model is 20 MB in float32 against 10 MB so.
   */
  proj: Int16Array;
  scale: Float32Array;
}

/** Training knobs; the defaults were tuned on the Cranfield training queries. */
export interface LsaOptions {
  dims?: number;
  maxTerms?: number;
  sigmaPower?: number;
  version?: number;
  powerIterations?: number;
  /** The corpus size the model stands for (its retraining is due at twice it); the sample's own by default. */
  docs?: number;
}

/** Trains a model on `texts` (a bounded sample of the corpus). */
export function trainLsa(texts: string[], options: LsaOptions = {}): LsaModel {
  const corpus = new LsaCorpus();
  for (const text of texts) corpus.add(text);
  return corpus.train(options);
}

/**
 * A training sample gathered one document at a time: each text is reduced to its distinct terms
 * (in order of first occurrence) and their counts as it arrives, so the texts need not stay in
 * memory (a 10 MB book's chapters as term lists took ten times their size). `train()` gives
 * exactly the model `trainLsa()` gives on the same texts in the same order.
 */
export class LsaCorpus {
  #ids = new Map<string, number>();
  #terms: string[] = [];
  #df: number[] = [];
  #docs: { ids: Int32Array; counts: Int32Array }[] = [];
  /** Occurrences of each term id in the document being added (zero between documents). */
  #scratch = new Int32Array(1024);

  /** Documents added so far. */
  get size(): number {
    return this.#docs.length;
  }

  /** Adds one document. */
  add(text: string): void {
    const seen: number[] = [];
    for (const t of terms(text)) {
      let id = this.#ids.get(t);
      if (id === undefined) {
        id = this.#terms.length;
        this.#ids.set(t, id);
        this.#terms.push(t);
        this.#df.push(0);
        if (id >= this.#scratch.length) {
          const grown = new Int32Array(this.#scratch.length * 2);
          grown.set(this.#scratch);
          this.#scratch = grown;
        }
      }
      if (this.#scratch[id]++ === 0) seen.push(id);
    }
    const ids = Int32Array.from(seen);
    const counts = new Int32Array(ids.length);
    for (let j = 0; j < ids.length; j++) {
      counts[j] = this.#scratch[ids[j]];
      this.#scratch[ids[j]] = 0;
      this.#df[ids[j]]++;
    }
    this.#docs.push({ ids, counts });
  }

  /** The model of the documents added so far; training spends (empties) the corpus. */
  train(options: LsaOptions = {}): LsaModel {
    const n = this.#docs.length;
    const { csr, vocab, index, weight } = this.#matrix(options);
    // The documents' term counts are in the matrix now: let them go before the SVD's buffers.
    this.#docs = [];
    this.#ids = new Map();
    this.#terms = [];
    this.#df = [];
    // Truncation is what generalises: keep at most one dimension per 8 documents, so a small
    // corpus still folds words that co-occur into shared directions instead of copying terms.
    const power = options.sigmaPower ?? 1;
    const { v: proj, k } = truncatedSvd(csr, {
      k: Math.min(options.dims ?? 128, Math.max(2, Math.floor(n / 8))),
      powerIterations: options.powerIterations ?? 2,
      scale: (sigma) => sigma > 1e-9 ? sigma ** (power - 1) : 0,
    });
    return {
      version: options.version ?? 1,
      dims: k,
      docs: options.docs ?? n,
      vocab,
      index,
      weight,
      ...quantize(proj, k),
    };
  }

  /** The sample's log-entropy matrix (sublinear tf, rows L2-normalised) and its vocabulary. */
  #matrix(options: LsaOptions) {
    const docs = this.#docs;
    const df = this.#df;
    const names = this.#terms;
    const minDf = docs.length >= 200 ? 2 : 1; // hapaxes in a big corpus are mostly noise and typos
    const kept = [...df.keys()].filter((id) => df[id] >= minDf)
      .sort((a, b) => df[b] - df[a] || (names[a] < names[b] ? -1 : 1))
      .slice(0, options.maxTerms ?? 50_000);
    const vocab = kept.map((id) => names[id]);
    const index = new Map(vocab.map((t, i) => [t, i]));
    const column = new Int32Array(names.length).fill(-1);
    kept.forEach((id, i) => column[id] = i);
    // Global weights: each term's occurrences over the documents, and the entropy of that spread.
    const total = new Float64Array(names.length);
    for (const d of docs) for (let j = 0; j < d.ids.length; j++) total[d.ids[j]] += d.counts[j];
    const plogp = new Float64Array(names.length);
    for (const d of docs) {
      for (let j = 0; j < d.ids.length; j++) {
        const p = d.counts[j] / total[d.ids[j]];
        plogp[d.ids[j]] += p * Math.log(p);
      }
    }
    const logN = Math.log(Math.max(2, docs.length));
    const weight = new Float32Array(vocab.length);
    kept.forEach((id, i) => weight[i] = 1 + plogp[id] / logN);
    const rowPtr = new Int32Array(docs.length + 1);
    docs.forEach((d, r) => {
      let n = 0;
      for (const id of d.ids) if (column[id] >= 0) n++;
      rowPtr[r + 1] = rowPtr[r] + n;
    });
    const colIdx = new Int32Array(rowPtr[docs.length]);
    const values = new Float32Array(colIdx.length);
    docs.forEach((d, r) => {
      // Sublinear tf times the global weight, L2-normalised per document.
      let norm = 0;
      for (let j = 0; j < d.ids.length; j++) {
        const c = column[d.ids[j]];
        if (c < 0) continue;
        const x = (1 + Math.log(d.counts[j])) * weight[c];
        norm += x * x;
      }
      norm = Math.sqrt(norm) || 1;
      let at = rowPtr[r];
      for (let j = 0; j < d.ids.length; j++) {
        const c = column[d.ids[j]];
        if (c < 0) continue;
        colIdx[at] = c;
        values[at++] = (1 + Math.log(d.counts[j])) * weight[c] / norm;
      }
    });
    const csr: Csr = { rows: docs.length, cols: vocab.length, rowPtr, colIdx, values };
    return { csr, vocab, index, weight };
  }
}

/**
 * Each row of a float projection as int16 times the row's largest magnitude / 32767: a component
 * moves by at most 0.0015% of its row's largest. Int8 (0.4%) was tried: on a small corpus, where
 * a model has few dimensions, it reordered articles whose cosines differed by 1e-4.
 */
function quantize(proj: Float32Array, dims: number): { proj: Int16Array; scale: Float32Array } {
  const rows = dims === 0 ? 0 : proj.length / dims;
  const q = new Int16Array(proj.length);
  const scale = new Float32Array(rows);
  for (let t = 0; t < rows; t++) {
    const base = t * dims;
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(proj[base + j]));
    if (max === 0) continue;
    scale[t] = max / 32767;
    for (let j = 0; j < dims; j++) q[base + j] = Math.round(proj[base + j] / scale[t]);
  }
  return { proj: q, scale };
}

/** Sublinear tf times global weights of a term list, keyed by vocabulary index. */
function weigh(model: Pick<LsaModel, "index" | "weight">, list: string[]): Map<number, number> {
  const tf = new Map<number, number>();
  for (const t of list) {
    const i = model.index.get(t);
    if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  for (const [i, n] of tf) tf.set(i, (1 + Math.log(n)) * model.weight[i]);
  return tf;
}

/** Folds `text` into the latent space; L2-normalised, all zeros when no word is known. */
export function embedLsa(model: LsaModel, text: string): Float32Array {
  const k = model.dims;
  const acc = new Float64Array(k);
  for (const [i, w] of weigh(model, terms(text))) {
    const base = i * k;
    const ws = w * model.scale[i];
    for (let j = 0; j < k; j++) acc[j] += ws * model.proj[base + j];
  }
  let norm = 0;
  for (let j = 0; j < k; j++) norm += acc[j] * acc[j];
  const out = new Float32Array(k);
  if (norm === 0) return out;
  norm = Math.sqrt(norm);
  for (let j = 0; j < k; j++) out[j] = acc[j] / norm;
  return out;
}

/** Version 2 holds the int16 projection; version 1 (float32) models still load. */
const FORMAT = "folio-lsa/2";
const FORMAT_FLOAT = "folio-lsa/1";

/** Bytes of a model, for the `search_models` table: header, then weights and scales, then the int16 rows. */
export function serializeLsa(model: LsaModel): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify({
    format: FORMAT,
    // What the stored weights are (models saved before issue 41's change hold TF-IDF's idf there).
    weighting: "log-entropy",
    version: model.version,
    dims: model.dims,
    docs: model.docs,
    vocab: model.vocab,
  }));
  const headerLen = Math.ceil((4 + header.length) / 4) * 4;
  const floats = model.weight.byteLength + model.scale.byteLength;
  const out = new Uint8Array(headerLen + floats + model.proj.byteLength);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(
    new Uint8Array(model.weight.buffer, model.weight.byteOffset, model.weight.byteLength),
    headerLen,
  );
  out.set(
    new Uint8Array(model.scale.buffer, model.scale.byteOffset, model.scale.byteLength),
    headerLen + model.weight.byteLength,
  );
  out.set(
    new Uint8Array(model.proj.buffer, model.proj.byteOffset, model.proj.byteLength),
    headerLen + floats,
  );
  return out;
}

/**
 * A model from `serializeLsa` bytes; throws on a foreign or truncated blob. The arrays are views
 * into `bytes` where they are aligned (a blob read from the store is), so loading copies nothing.
 */
export function deserializeLsa(bytes: Uint8Array): LsaModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + len)));
  if (header.format !== FORMAT && header.format !== FORMAT_FLOAT) {
    throw new Error(`Cannot read LSA model: format ${header.format}`);
  }
  const m = header.vocab.length;
  const dims = header.dims;
  let body = bytes.subarray(Math.ceil((4 + len) / 4) * 4);
  if (body.byteOffset % 4 !== 0) body = body.slice();
  const floats = (at: number, n: number) => new Float32Array(body.buffer, body.byteOffset + at, n);
  const base = {
    version: header.version,
    dims,
    docs: header.docs,
    vocab: header.vocab,
    index: new Map<string, number>(header.vocab.map((t: string, i: number) => [t, i])),
  };
  if (header.format === FORMAT_FLOAT) {
    if (body.byteLength !== 4 * m * (1 + dims)) throw new Error("Cannot read LSA model: truncated");
    return { ...base, weight: floats(0, m).slice(), ...quantize(floats(4 * m, m * dims), dims) };
  }
  if (body.byteLength !== 8 * m + 2 * m * dims) throw new Error("Cannot read LSA model: truncated");
  return {
    ...base,
    weight: floats(0, m),
    scale: floats(4 * m, m),
    proj: new Int16Array(body.buffer, body.byteOffset + 8 * m, m * dims),
  };
}
