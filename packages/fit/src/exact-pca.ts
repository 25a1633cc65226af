import type { TrainingMatrix } from './centred-scatter.js';
import { symmetricEigen } from './linear-algebra.js';
import type { PcaBasis } from './pca-basis.js';

/**
 * The exact PCA basis of the centred training rows: the leading `r` eigenvectors of the n×n Gram
 * matrix `(X − 1μᵀ)(X − 1μᵀ)ᵀ`, mapped back to the base space (`q = (X − 1μᵀ)ᵀ·U·Λ^(−1/2)`, d×r,
 * orthonormal columns). Deterministic: no seed, no power iterations. `r` shrinks to the rank.
 */
export function exactPca(matrix: Pick<TrainingMatrix, 'csr' | 'mean' | 'n' | 'd'>, r: number): PcaBasis {
  const { csr, mean, n, d } = matrix;
  const { indptr, indices, values } = csr;
  let meanSquare = 0;
  for (let a = 0; a < d; a++) meanSquare += mean[a]! * mean[a]!;
  const rowMean = new Float64Array(n); // x_i · μ
  for (let i = 0; i < n; i++)
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) rowMean[i]! += values[p]! * mean[indices[p]!]!;
  // Gram of the centred rows: x_i·x_j − x_i·μ − x_j·μ + μ·μ.
  const gram = new Float64Array(n * n);
  const dense = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) dense[indices[p]!] = values[p]!;
    for (let j = i; j < n; j++) {
      let dot = 0;
      for (let p = indptr[j]!; p < indptr[j + 1]!; p++) dot += values[p]! * dense[indices[p]!]!;
      const value = dot - rowMean[i]! - rowMean[j]! + meanSquare;
      gram[i * n + j] = value;
      gram[j * n + i] = value;
    }
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) dense[indices[p]!] = 0;
  }
  const eigen = symmetricEigen(gram, n); // descending
  const largest = eigen.values[0]!;
  let rank = 0;
  while (rank < n && eigen.values[rank]! > Math.max(largest * 1e-10, 1e-12)) rank++;
  const kept = Math.max(1, Math.min(r, rank));
  // q = Xᵀ U − μ (1ᵀU), then each column scaled by 1/√λ.
  const q = new Float64Array(d * kept);
  const columnSums = new Float64Array(kept);
  for (let i = 0; i < n; i++) {
    const u = i * n;
    for (let c = 0; c < kept; c++) columnSums[c]! += eigen.vectors[u + c]!;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const row = indices[p]! * kept;
      const value = values[p]!;
      for (let c = 0; c < kept; c++) q[row + c]! += value * eigen.vectors[u + c]!;
    }
  }
  const scales = Array.from({ length: kept }, (_, c) => 1 / Math.sqrt(Math.max(eigen.values[c]!, 1e-12)));
  for (let a = 0; a < d; a++) {
    const m = mean[a]!;
    const row = a * kept;
    for (let c = 0; c < kept; c++) q[row + c] = (q[row + c]! - m * columnSums[c]!) * scales[c]!;
  }
  return { q, r: kept, method: 'exact' };
}
