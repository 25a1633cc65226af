import { rowWeight, type TrainingMatrix } from './centred-scatter.js';
import { sharedFloat64 } from './parallel.js';
import { coordinatesIn, type PcaBasis } from './pca-basis.js';

/** The classes in the reduced space: sizes, means (k×r) and the within-class scatter (r×r) with its trace. */
export interface ClassScatter {
  sizes: Float64Array;
  means: Float64Array;
  within: Float64Array;
  trace: number;
  /**
   * Each chunk's reduced, centred coordinates less its class mean (n×r, shared memory): row i plus
   * `means[labels[i]]` is the chunk's coordinates (what `refineByProxies` trains on).
   */
  residuals: Float64Array;
}

/**
 * Step 3: reduced, centred coordinates `z = Qᵀ(x − μ)` (computed once), the class means, then the
 * within-class scatter of the coordinates centred on their class mean. `onStep` runs after the
 * centring and after the scatter.
 */
export async function classScatter(
  matrix: TrainingMatrix,
  basis: PcaBasis,
  labels: readonly number[],
  k: number,
  onStep: () => void,
): Promise<ClassScatter> {
  const { csr, mean, n, d, pool } = matrix;
  const { q, r, whole = 0 } = basis;
  const qMean = coordinatesIn(basis, mean, d);
  const reducedRows = sharedFloat64(n * r);
  if (q) {
    const sharedQ = sharedFloat64(q.length);
    sharedQ.set(q);
    await pool.run(
      n,
      rowWeight(csr),
      0,
      (start, end, target) => ({ kernel: 'reduce', csr, q: sharedQ, r, whole, out: target, start, end }),
      reducedRows,
    );
  } else {
    for (let i = 0; i < n; i++)
      for (let j = csr.indptr[i]!; j < csr.indptr[i + 1]!; j++)
        reducedRows[i * r + csr.indices[j]!] = csr.values[j]!;
  }
  const sizes = new Float64Array(k);
  const means = new Float64Array(k * r);
  for (let i = 0; i < n; i++) {
    const row = i * r;
    for (let c = 0; c < r; c++) reducedRows[row + c]! -= qMean[c]!;
    const c = labels[i]!;
    sizes[c]!++;
    for (let a = 0; a < r; a++) means[c * r + a]! += reducedRows[row + a]!;
  }
  for (let c = 0; c < k; c++) for (let a = 0; a < r; a++) means[c * r + a]! /= sizes[c]!;
  for (let i = 0; i < n; i++) {
    const row = i * r;
    const c = labels[i]!;
    for (let a = 0; a < r; a++) reducedRows[row + a]! -= means[c * r + a]!;
  }
  onStep();
  const within = await pool.run(
    n,
    () => 1,
    r * r,
    (start, end, target) => ({ kernel: 'gram', z: reducedRows, r, out: target, start, end }),
  );
  let trace = 0;
  for (let a = 0; a < r; a++) {
    for (let b = a; b < r; b++) {
      within[a * r + b]! /= n;
      within[b * r + a] = within[a * r + b]!;
    }
    trace += within[a * r + a]!;
  }
  onStep();
  return { sizes, means, within, trace, residuals: reducedRows };
}
