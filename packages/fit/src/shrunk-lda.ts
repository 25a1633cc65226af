import type { ClassScatter } from './class-scatter.js';
import { symmetricEigen } from './linear-algebra.js';
import { whiteningOf } from './whitening.js';

/** The LDA map of the reduced space: r×out, and its output dimensions. */
export interface LdaMap {
  reduced: Float64Array;
  out: number;
}

/**
 * Step 4: shrinks the within-class scatter towards a multiple of the identity (`shrinkage`), whitens
 * it, and keeps the leading eigenvectors of the whitened between-class scatter: `out` directions
 * (`dimensions`, at most k − 1 and r). Changes `scatter.within` in place.
 *
 * The between-class scatter has rank k − 1 at most, so its leading eigenvectors come from the k×k
 * Gram matrix of the whitened class means rather than from the r×r scatter, and the whitening is a
 * Cholesky factor rather than an eigen-decomposition (`whiteningOf`): the same directions (any
 * whitening gives them, up to sign), for a k³ and an r³/6 step instead of two r³ ones — 6.3 s → 0.2 s
 * of a 15,000-chunk fit at r = 768 (bench/BEFORE-AFTER.md §33).
 */
export function shrunkLda(
  scatter: ClassScatter,
  n: number,
  r: number,
  k: number,
  shrinkage: number,
  dimensions: number | null,
): LdaMap {
  const { within, trace, means, sizes } = scatter;
  const floor = (shrinkage * trace) / r;
  for (let i = 0; i < r * r; i++) within[i]! *= 1 - shrinkage;
  for (let a = 0; a < r; a++) within[a * r + a]! += floor;
  const whitening = whiteningOf(within, r);
  const weighted = new Float64Array(k * r);
  for (let c = 0; c < k; c++) {
    const scale = Math.sqrt(sizes[c]! / n);
    for (let a = 0; a < r; a++) weighted[c * r + a] = means[c * r + a]! * scale;
  }
  const whitenedMeans = whitening.rows(weighted, k); // k×r
  const out = Math.max(1, Math.min(dimensions ?? k - 1, k - 1, r));
  const directions =
    directionsFromMeans(whitenedMeans, k, r, out) ?? directionsFromScatter(whitenedMeans, k, r, out);
  return { reduced: whitening.back(directions, out), out };
}

/**
 * The `out` leading eigenvectors (r×out, orthonormal columns) of BᵀB, B the k×r whitened means, from
 * the eigenvectors u of the k×k BBᵀ: v = Bᵀu / √λ. Null when k ≥ r (the scatter is no larger) or
 * when fewer than `out` eigenvalues stand clear of zero (classes with the same mean), where those
 * directions are arbitrary and the scatter's own eigenvectors give them.
 */
function directionsFromMeans(b: Float64Array, k: number, r: number, out: number): Float64Array | null {
  if (k >= r) return null;
  const gram = new Float64Array(k * k);
  for (let c = 0; c < k; c++) {
    for (let e = c; e < k; e++) {
      let dot = 0;
      for (let a = 0; a < r; a++) dot += b[c * r + a]! * b[e * r + a]!;
      gram[c * k + e] = dot;
      gram[e * k + c] = dot;
    }
  }
  const eigen = symmetricEigen(gram, k);
  const largest = eigen.values[0]!;
  if (!(largest > 0) || !(eigen.values[out - 1]! > largest * 1e-9)) return null;
  const directions = new Float64Array(r * out);
  for (let o = 0; o < out; o++) {
    const scale = 1 / Math.sqrt(eigen.values[o]!);
    for (let c = 0; c < k; c++) {
      const weight = eigen.vectors[c * k + o]! * scale;
      if (weight === 0) continue;
      for (let a = 0; a < r; a++) directions[a * out + o]! += weight * b[c * r + a]!;
    }
  }
  return directions;
}

/** The `out` leading eigenvectors of the r×r whitened between-class scatter BᵀB itself. */
function directionsFromScatter(b: Float64Array, k: number, r: number, out: number): Float64Array {
  const between = new Float64Array(r * r);
  for (let c = 0; c < k; c++) {
    for (let a = 0; a < r; a++) {
      const value = b[c * r + a]!;
      if (value === 0) continue;
      for (let e = a; e < r; e++) between[a * r + e]! += value * b[c * r + e]!;
    }
  }
  for (let a = 0; a < r; a++) for (let e = a + 1; e < r; e++) between[e * r + a] = between[a * r + e]!;
  const sb = symmetricEigen(between, r);
  const directions = new Float64Array(r * out);
  for (let a = 0; a < r; a++) for (let o = 0; o < out; o++) directions[a * out + o] = sb.vectors[a * r + o]!;
  return directions;
}
