/**
 * The built-in embedder's model: latent semantic analysis trained on a publisher's own corpus.
 * TF-IDF (sublinear tf, smoothed idf, stop words removed, Porter stems like the FTS tokenizer),
 * then a truncated SVD; new text is folded in through the learned term projection.
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
  idf: Float32Array;
  /** vocab × dims, row-major: V Σ^(sigmaPower - 1), so a fold-in lands in scaled latent space. */
  proj: Float32Array;
}

/** Training knobs; the defaults were tuned on the Cranfield training queries. */
export interface LsaOptions {
  dims?: number;
  maxTerms?: number;
  sigmaPower?: number;
  version?: number;
  powerIterations?: number;
}

/** Trains a model on `texts` (a bounded sample of the corpus). */
export function trainLsa(texts: string[], options: LsaOptions = {}): LsaModel {
  const docs = texts.map((t) => terms(t));
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const minDf = docs.length >= 200 ? 2 : 1; // hapaxes in a big corpus are mostly noise and typos
  const vocab = [...df].filter(([, n]) => n >= minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, options.maxTerms ?? 50_000)
    .map(([t]) => t);
  const index = new Map(vocab.map((t, i) => [t, i]));
  const idf = new Float32Array(vocab.length);
  vocab.forEach((t, i) => idf[i] = Math.log((1 + docs.length) / (1 + df.get(t)!)) + 1);
  const partial = { index, idf };
  const rowPtr = new Int32Array(docs.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  docs.forEach((d, r) => {
    const w = weigh(partial, d);
    let norm = 0;
    for (const x of w.values()) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (const [c, x] of w) {
      cols.push(c);
      vals.push(x / norm);
    }
    rowPtr[r + 1] = cols.length;
  });
  const csr: Csr = {
    rows: docs.length,
    cols: vocab.length,
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: Float32Array.from(vals),
  };
  // Truncation is what generalises: keep at most one dimension per 8 documents, so a small
  // corpus still folds words that co-occur into shared directions instead of copying terms.
  const { v, sigma, k } = truncatedSvd(csr, {
    k: Math.min(options.dims ?? 128, Math.max(2, Math.floor(docs.length / 8))),
    powerIterations: options.powerIterations ?? 2,
  });
  const power = options.sigmaPower ?? 1;
  const proj = new Float32Array(vocab.length * k);
  for (let j = 0; j < k; j++) {
    const scale = sigma[j] > 1e-9 ? sigma[j] ** (power - 1) : 0;
    for (let t = 0; t < vocab.length; t++) proj[t * k + j] = v[t * k + j] * scale;
  }
  return { version: options.version ?? 1, dims: k, docs: texts.length, vocab, index, idf, proj };
}

/** Sublinear tf-idf weights of a term list, keyed by vocabulary index. */
function weigh(model: Pick<LsaModel, "index" | "idf">, list: string[]): Map<number, number> {
  const tf = new Map<number, number>();
  for (const t of list) {
    const i = model.index.get(t);
    if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  for (const [i, n] of tf) tf.set(i, (1 + Math.log(n)) * model.idf[i]);
  return tf;
}

/** Folds `text` into the latent space; L2-normalised, all zeros when no word is known. */
export function embedLsa(model: LsaModel, text: string): Float32Array {
  const k = model.dims;
  const acc = new Float64Array(k);
  for (const [i, w] of weigh(model, terms(text))) {
    const base = i * k;
    for (let j = 0; j < k; j++) acc[j] += w * model.proj[base + j];
  }
  let norm = 0;
  for (let j = 0; j < k; j++) norm += acc[j] * acc[j];
  const out = new Float32Array(k);
  if (norm === 0) return out;
  norm = Math.sqrt(norm);
  for (let j = 0; j < k; j++) out[j] = acc[j] / norm;
  return out;
}

const FORMAT = "folio-lsa/1";

/** Bytes of a model, for the `search_models` table. */
export function serializeLsa(model: LsaModel): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify({
    format: FORMAT,
    version: model.version,
    dims: model.dims,
    docs: model.docs,
    vocab: model.vocab,
  }));
  const headerLen = Math.ceil((4 + header.length) / 4) * 4;
  const out = new Uint8Array(headerLen + 4 * (model.idf.length + model.proj.length));
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(new Uint8Array(model.idf.buffer, model.idf.byteOffset, model.idf.byteLength), headerLen);
  out.set(
    new Uint8Array(model.proj.buffer, model.proj.byteOffset, model.proj.byteLength),
    headerLen + model.idf.byteLength,
  );
  return out;
}

/** A model from `serializeLsa` bytes; throws on a foreign or truncated blob. */
export function deserializeLsa(bytes: Uint8Array): LsaModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + len)));
  if (header.format !== FORMAT) throw new Error(`Cannot read LSA model: format ${header.format}`);
  const m = header.vocab.length;
  const start = Math.ceil((4 + len) / 4) * 4;
  const floats = new Float32Array(bytes.slice(start).buffer);
  if (floats.length !== m * (1 + header.dims)) throw new Error("Cannot read LSA model: truncated");
  return {
    version: header.version,
    dims: header.dims,
    docs: header.docs,
    vocab: header.vocab,
    index: new Map(header.vocab.map((t: string, i: number) => [t, i])),
    idf: floats.slice(0, m),
    proj: floats.slice(m),
  };
}
