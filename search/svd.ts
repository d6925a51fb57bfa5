/** Truncated SVD of a sparse matrix by randomized subspace iteration (Halko, Martinsson, Tropp 2011). */

/** A sparse rows × cols matrix in compressed-row form. */
export interface Csr {
  rows: number;
  cols: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float32Array;
}

/**
 * The top `k` right singular vectors of `a` (cols × k, row-major, float32), column j scaled by
 * `scale(σ_j)` (1 when not given), and the singular values.
 */
export function truncatedSvd(
  a: Csr,
  options: {
    k: number;
    oversample?: number;
    powerIterations?: number;
    seed?: number;
    scale?: (sigma: number) => number;
  },
): { v: Float32Array; sigma: Float64Array; k: number } {
  const k = Math.max(1, Math.min(options.k, a.rows, a.cols));
  const l = Math.min(k + (options.oversample ?? 10), a.cols, Math.max(a.rows, k));
  const random = gaussian(options.seed ?? 42);
  // One cols × l buffer (55 MB at 50k terms and 128 dimensions) serves every wide product in
  // turn: the random start, Aᵀ Q and its orthonormal basis in each power iteration, then Bᵀ.
  const wide = new Float64Array(a.cols * l);
  for (let i = 0; i < wide.length; i++) wide[i] = random();
  let q = orthonormalize(times(a, wide, l), a.rows, l);
  for (let it = 0; it < (options.powerIterations ?? 2); it++) {
    const z = orthonormalize(transposeTimes(a, q, l, wide), a.cols, l);
    q = orthonormalize(times(a, z, l), a.rows, l);
  }
  // A ≈ Q B with B = Qᵀ A; B's right singular vectors are A's. Bᵀ = Aᵀ Q is cols × l.
  const bt = transposeTimes(a, q, l, wide);
  const { values, vectors } = symmetricEigen(gram(bt, a.cols, l), l);
  const v = new Float32Array(a.cols * k);
  const sigma = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const s = Math.sqrt(Math.max(values[j], 0));
    sigma[j] = s;
    if (s < 1e-12) continue;
    const scale = options.scale ? options.scale(s) : 1;
    // V[:, j] = Bᵀ u_j / σ_j
    for (let r = 0; r < a.cols; r++) {
      let sum = 0;
      const base = r * l;
      for (let t = 0; t < l; t++) sum += bt[base + t] * vectors[t * l + j];
      v[r * k + j] = (sum / s) * scale;
    }
  }
  return { v, sigma, k };
}

/** A (rows × cols, sparse) times X (cols × l, row-major). */
function times(a: Csr, x: Float64Array, l: number): Float64Array {
  const y = new Float64Array(a.rows * l);
  for (let r = 0; r < a.rows; r++) {
    const yb = r * l;
    for (let p = a.rowPtr[r]; p < a.rowPtr[r + 1]; p++) {
      const v = a.values[p];
      const xb = a.colIdx[p] * l;
      for (let t = 0; t < l; t++) y[yb + t] += v * x[xb + t];
    }
  }
  return y;
}

/** Aᵀ (cols × rows) times Y (rows × l, row-major), into `z` when given. */
function transposeTimes(
  a: Csr,
  y: Float64Array,
  l: number,
  z = new Float64Array(a.cols * l),
): Float64Array {
  z.fill(0);
  for (let r = 0; r < a.rows; r++) {
    const yb = r * l;
    for (let p = a.rowPtr[r]; p < a.rowPtr[r + 1]; p++) {
      const v = a.values[p];
      const zb = a.colIdx[p] * l;
      for (let t = 0; t < l; t++) z[zb + t] += v * y[yb + t];
    }
  }
  return z;
}

/** Yᵀ Y for Y (n × l, row-major). */
function gram(y: Float64Array, n: number, l: number): Float64Array {
  const g = new Float64Array(l * l);
  for (let r = 0; r < n; r++) {
    const b = r * l;
    for (let i = 0; i < l; i++) {
      const yi = y[b + i];
      if (yi === 0) continue;
      const gi = i * l;
      for (let j = i; j < l; j++) g[gi + j] += yi * y[b + j];
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) g[i * l + j] = g[j * l + i];
  return g;
}

/**
 * An orthonormal basis of Y's column space: Y W Λ^-1/2 from the eigenpairs of YᵀY, written over
 * Y (each row of the basis depends only on the same row of Y).
 */
function orthonormalize(y: Float64Array, n: number, l: number): Float64Array {
  const { values, vectors } = symmetricEigen(gram(y, n, l), l);
  const floor = Math.max(values[0], 0) * 1e-12;
  const m = new Float64Array(l * l);
  for (let j = 0; j < l; j++) {
    if (values[j] <= floor) continue; // a rank-deficient direction: leave that column zero
    const s = 1 / Math.sqrt(values[j]);
    for (let i = 0; i < l; i++) m[i * l + j] = vectors[i * l + j] * s;
  }
  const row = new Float64Array(l);
  for (let r = 0; r < n; r++) {
    const b = r * l;
    row.fill(0);
    for (let i = 0; i < l; i++) {
      const yi = y[b + i];
      if (yi === 0) continue;
      const mi = i * l;
      for (let j = 0; j < l; j++) row[j] += yi * m[mi + j];
    }
    y.set(row, b);
  }
  return y;
}

/** Eigenpairs of a symmetric n × n matrix by cyclic Jacobi, sorted by descending eigenvalue. */
export function symmetricEigen(
  matrix: Float64Array,
  n: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += a[i * n + i] ** 2;
      for (let j = i + 1; j < n; j++) off += a[i * n + j] ** 2;
    }
    if (off <= 1e-22 * diag || off === 0) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [...Array(n).keys()].sort((i, j) => a[j * n + j] - a[i * n + i]);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src];
    for (let k = 0; k < n; k++) vectors[k * n + dst] = v[k * n + src];
  });
  return { values, vectors };
}

/** A seeded standard normal generator (mulberry32 + Box-Muller), so training is reproducible. */
function gaussian(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}
