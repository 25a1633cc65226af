import { multiply } from './linear-algebra.js';
import { type Csr, type Pool, sharedFloat64 } from './parallel.js';

/** The training rows in CSR form, their mean, and the worker pool that multiplies them. */
export interface TrainingMatrix {
  csr: Csr;
  mean: Float64Array;
  /** Rows (chunks). */
  n: number;
  /** Columns (base dimensions). */
  d: number;
  pool: Pool;
}

/** How much work a row is for the pool: its non-zero entries, plus one. */
export function rowWeight(csr: Csr): (i: number) => number {
  return (i) => csr.indptr[i + 1]! - csr.indptr[i]! + 1;
}

/** `(X − 1μᵀ)ᵀ(X − 1μᵀ)·B`, B d×k: the centred scatter times B, never forming the d×d matrix. */
export async function scatterTimes(
  matrix: TrainingMatrix,
  b: Float64Array,
  k: number,
): Promise<Float64Array> {
  const { csr, mean, n, d, pool } = matrix;
  const shared = sharedFloat64(b.length);
  shared.set(b);
  const out = await pool.run(n, rowWeight(csr), d * k, (start, end, target) => ({
    kernel: 'scatter',
    csr,
    b: shared,
    k,
    out: target,
    start,
    end,
  }));
  const mb = multiply(mean, b, 1, d, k);
  for (let i = 0; i < d; i++) {
    const m = mean[i]! * n;
    if (m === 0) continue;
    for (let c = 0; c < k; c++) out[i * k + c]! -= m * mb[c]!;
  }
  return out;
}
