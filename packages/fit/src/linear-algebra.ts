import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/** A vector stored by its non-zero entries. */
export interface SparseRow {
  indices: Int32Array;
  values: Float64Array;
}

/** The non-zero entries of a vector. */
export function toSparse(vector: ArrayLike<number>): SparseRow {
  let count = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) count++;
  const indices = new Int32Array(count);
  const values = new Float64Array(count);
  let at = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i]!;
    if (value !== 0) {
      indices[at] = i;
      values[at++] = value;
    }
  }
  return { indices, values };
}

/** Deterministic uniform numbers in (0, 1) (mulberry32), so a fit is reproducible. */
export function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

/** Deterministic standard normal numbers (mulberry32 + Box–Muller), so a fit is reproducible. */
export function gaussian(seed: number): () => number {
  const next = uniform(seed);
  return () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
}

/**
 * Orthonormal columns spanning the columns of `a` (d×k, row-major), by modified Gram–Schmidt run
 * twice. Columns that are (numerically) dependent are dropped: the result is d×k' with k' ≤ k.
 */
export function orthonormalColumns(a: Float64Array, d: number, k: number): { q: Float64Array; k: number } {
  const columns: Float64Array[] = [];
  let reference = 0;
  for (let c = 0; c < k; c++) {
    const column = new Float64Array(d);
    for (let i = 0; i < d; i++) column[i] = a[i * k + c]!;
    let norm = norm2(column);
    reference = Math.max(reference, norm);
    for (let pass = 0; pass < 2; pass++) {
      for (const other of columns) {
        let dot = 0;
        for (let i = 0; i < d; i++) dot += other[i]! * column[i]!;
        for (let i = 0; i < d; i++) column[i]! -= dot * other[i]!;
      }
    }
    norm = norm2(column);
    if (norm <= 1e-9 * reference) continue;
    for (let i = 0; i < d; i++) column[i]! /= norm;
    columns.push(column);
  }
  const kept = columns.length;
  const q = new Float64Array(d * kept);
  columns.forEach((column, c) => {
    for (let i = 0; i < d; i++) q[i * kept + c] = column[i]!;
  });
  return { q, k: kept };
}

function norm2(vector: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

/** Eigenvalues (descending) and eigenvectors (columns of an r×r row-major array) of a symmetric matrix. */
export function symmetricEigen(s: Float64Array, r: number): { values: Float64Array; vectors: Float64Array } {
  const rows: number[][] = [];
  for (let i = 0; i < r; i++) {
    const row = new Array<number>(r);
    for (let j = 0; j < r; j++) row[j] = 0.5 * (s[i * r + j]! + s[j * r + i]!);
    rows.push(row);
  }
  const decomposition = new EigenvalueDecomposition(new Matrix(rows), { assumeSymmetric: true });
  const eigenvalues = decomposition.realEigenvalues;
  const eigenvectors = decomposition.eigenvectorMatrix;
  const order = eigenvalues.map((_, i) => i).sort((a, b) => eigenvalues[b]! - eigenvalues[a]!);
  const values = new Float64Array(r);
  const vectors = new Float64Array(r * r);
  order.forEach((from, to) => {
    values[to] = eigenvalues[from]!;
    for (let i = 0; i < r; i++) vectors[i * r + to] = eigenvectors.get(i, from);
  });
  return { values, vectors };
}

/** `a` (m×n) times `b` (n×p), row-major. */
export function multiply(a: Float64Array, b: Float64Array, m: number, n: number, p: number): Float64Array {
  const out = new Float64Array(m * p);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const value = a[i * n + j]!;
      if (value === 0) continue;
      const from = j * p;
      const to = i * p;
      for (let c = 0; c < p; c++) out[to + c]! += value * b[from + c]!;
    }
  }
  return out;
}
