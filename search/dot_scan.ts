/**
 * The nearest rows to a query, in WebAssembly SIMD (search/dot_scan.wat). Each row is kept twice in
 * the module's memory: as floats, for exact scores, and as int8 with one scale, for the scan. A
 * query scans the int8 rows (a quarter of the bytes: at 100k articles × 128 dimensions the float
 * scan read 51 MB a query and was the serving thread's largest cost under load), bounds each
 * row's quantisation error, and scores exactly only the rows whose upper bound reaches the k-th
 * best lower bound: the same k rows, with the same scores, as a float scan of every row.
 */
import { DOT_SCAN_WASM } from "./dot_scan_wasm.ts";

type ScanI8 = (
  q: number,
  rows: number,
  scales: number,
  n: number,
  d16: number,
  qscale: number,
  c: number,
  out: number,
  minmax: number,
) => void;
type Histogram = (lower: number, n: number, lo: number, hi: number, hist: number) => void;
type Cut = (hist: number, k: number, lo: number, hi: number) => number;
type Filter = (
  lower: number,
  scales: number,
  n: number,
  c2: number,
  floor: number,
  exact: number,
  poolFloor: number,
  pool: number,
  counts: number,
) => void;
type Gather = (q: number, rows: number, slots: number, m: number, d: number, out: number) => void;

let compiled: WebAssembly.Module | null = null;
const PAGE = 65_536;
/**
 * Covers float rounding between the int8 bound and the float score, per unit of the query's
 * length (rows are unit or zero): the float dot itself is within d · 2^-24 of the real one.
 */
const SLACK = 1e-4;

/** Rows of `dims` floats (a multiple of 4) and the scans over them. */
export class DotScanner {
  #memory: WebAssembly.Memory;
  #scanI8: ScanI8;
  #histogram: Histogram;
  #cut: Cut;
  #filter: Filter;
  #gather: Gather;
  #capacity = 0;
  /** int8 values per row: dims rounded up to 16, the padding zero. */
  readonly #d16: number;
  /** The largest query value, so that 127 · qmax · d16 stays under 2^31 in the integer sum. */
  readonly #qmax: number;
  /** The float rows, back to back; a new view after the memory grows (old views detach). */
  rows = new Float32Array(0);
  #int8 = new Int8Array(0);
  #scales = new Float32Array(0);

  constructor(readonly dims: number) {
    if (dims % 4 !== 0) throw new RangeError("DotScanner needs a multiple of 4 dimensions");
    compiled ??= new WebAssembly.Module(
      Uint8Array.from(atob(DOT_SCAN_WASM), (c) => c.charCodeAt(0)),
    );
    this.#memory = new WebAssembly.Memory({ initial: 1 });
    const instance = new WebAssembly.Instance(compiled, { env: { memory: this.#memory } });
    this.#scanI8 = instance.exports.scan_i8 as ScanI8;
    this.#histogram = instance.exports.histogram as Histogram;
    this.#cut = instance.exports.cut as Cut;
    this.#filter = instance.exports.filter as Filter;
    this.#gather = instance.exports.gather as Gather;
    this.#d16 = Math.ceil(dims / 16) * 16;
    this.#qmax = Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * this.#d16)));
    this.#view();
  }

  /**
   * Byte offsets, for `capacity` rows: float rows from 0, then int8 rows, scales, the query as
   * floats and as int16, the selection's histogram and its two bounds and two counts, then per
   * row one lower bound, one slot, one pool slot and one exact score.
   */
  #layout(capacity = this.#capacity) {
    const d = this.dims, d16 = this.#d16;
    const int8 = capacity * d * 4;
    const scales = int8 + capacity * d16;
    const query = scales + capacity * 4;
    const query16 = query + d * 4;
    const hist = query16 + d16 * 2;
    const minmax = hist + 4096;
    const counts = minmax + 8;
    const lower = counts + 8;
    const slots = lower + capacity * 4;
    const pool = slots + capacity * 4;
    const out = pool + capacity * 4;
    return {
      int8,
      scales,
      query,
      query16,
      hist,
      minmax,
      counts,
      lower,
      slots,
      pool,
      out,
      end: out + capacity * 4,
    };
  }

  /** Room for at least `rows` rows, keeping the ones written (capacity at least doubles). */
  reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    const before = this.#capacity;
    const capacity = Math.max(rows, before * 2, 64);
    const old = this.#layout(before);
    const next = this.#layout(capacity);
    const pages = Math.ceil(next.end / PAGE) - this.#memory.buffer.byteLength / PAGE;
    if (pages > 0) this.#memory.grow(pages);
    const bytes = new Uint8Array(this.#memory.buffer);
    // Farthest region first: each moves up, over regions already moved.
    bytes.copyWithin(next.scales, old.scales, old.scales + before * 4);
    bytes.copyWithin(next.int8, old.int8, old.int8 + before * this.#d16);
    bytes.fill(0, before * this.dims * 4, next.int8);
    bytes.fill(0, next.int8 + before * this.#d16, next.scales);
    bytes.fill(0, next.scales + before * 4, next.query);
    this.#capacity = capacity;
    this.#view();
  }

  /** Re-derives row `slot`'s int8 copy after its floats in `rows` were written. */
  quantize(slot: number): void {
    const d = this.dims;
    const base = slot * d;
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(this.rows[base + j]));
    const scale = Math.fround(max / 127);
    this.#scales[slot] = scale;
    const at = slot * this.#d16;
    for (let j = 0; j < d; j++) {
      this.#int8[at + j] = scale > 0 ? Math.round(this.rows[base + j] / scale) : 0;
    }
  }

  /**
   * Every row of the first `n` that can be among the `k` with the largest dot product with
   * `query`, with its exact score, in slot order (views, valid until the next call); and with
   * `pool`, at least that many rows with the best lower bounds (a copy, in slot order).
   */
  nearest(
    query: Float32Array,
    n: number,
    k: number,
    pool = 0,
  ): { slots: Int32Array; scores: Float32Array; pool: Int32Array } {
    const at = this.#layout();
    const slots = new Int32Array(this.#memory.buffer, at.slots, n);
    if (k >= n) {
      for (let s = 0; s < n; s++) slots[s] = s;
      return {
        slots,
        scores: this.#exact(query, n),
        pool: pool > 0 ? slots.slice() : slots.slice(0, 0),
      };
    }
    const d = this.dims;
    let l1 = 0, l2 = 0, max = 0;
    for (let j = 0; j < d; j++) {
      l1 += Math.abs(query[j]);
      l2 += query[j] * query[j];
      max = Math.max(max, Math.abs(query[j]));
    }
    const qscale = Math.fround(max / this.#qmax) || 1;
    const q16 = new Int16Array(this.#memory.buffer, at.query16, this.#d16);
    for (let j = 0; j < d; j++) q16[j] = Math.round(query[j] / qscale);
    // |row · query - scale · qscale · (int8 row · q16)| ≤ scale · c: each int8 value is within half
    // a step of its float (≤ scale / 2), each int16 within half of its (≤ qscale / 2).
    const c = Math.fround((l1 / 2 + (qscale / 2) * 127 * d) * (1 + 1e-6));
    const buffer = this.#memory.buffer;
    this.#scanI8(at.query16, at.int8, at.scales, n, this.#d16, qscale, c, at.lower, at.minmax);
    // Rows whose upper bound stays below the k-th best lower bound cannot be among the k best;
    // the margin covers float rounding and SLACK on both bounds, for rows of length at most 1.
    const [lo, hi] = new Float32Array(buffer, at.minmax, 2);
    const margin = (1e-6 + 2 * SLACK) * Math.max(1, Math.sqrt(l2));
    let floor = -Infinity, poolFloor = pool > 0 ? -Infinity : Infinity;
    if (hi > lo) {
      this.#histogram(at.lower, n, lo, hi, at.hist);
      floor = this.#cut(at.hist, k, lo, hi) - margin;
      if (pool > 0) poolFloor = this.#cut(at.hist, pool, lo, hi);
    }
    this.#filter(at.lower, at.scales, n, 2 * c, floor, at.slots, poolFloor, at.pool, at.counts);
    const [m, p] = new Int32Array(buffer, at.counts, 2);
    return {
      slots: slots.subarray(0, m),
      scores: this.#exact(query, m),
      pool: new Int32Array(buffer, at.pool, p).slice(),
    };
  }

  /** Exact scores of the given rows (a view, valid until the next call). */
  dots(query: Float32Array, rows: ArrayLike<number>): Float32Array {
    const at = this.#layout();
    new Int32Array(this.#memory.buffer, at.slots, rows.length).set(rows);
    return this.#exact(query, rows.length);
  }

  /** Exact scores of the first `m` slots in the slot region. */
  #exact(query: Float32Array, m: number): Float32Array {
    const at = this.#layout();
    new Float32Array(this.#memory.buffer, at.query, this.dims).set(query);
    this.#gather(at.query, 0, at.slots, m, this.dims, at.out);
    return new Float32Array(this.#memory.buffer, at.out, m);
  }

  #view(): void {
    const at = this.#layout();
    const buffer = this.#memory.buffer;
    this.rows = new Float32Array(buffer, 0, this.#capacity * this.dims);
    this.#int8 = new Int8Array(buffer, at.int8, this.#capacity * this.#d16);
    this.#scales = new Float32Array(buffer, at.scales, this.#capacity);
  }
}
