import type { ClassScatter } from './class-scatter.js';
import { multiply, symmetricEigen } from './linear-algebra.js';

/** The LDA map of the reduced space: r×out, and its output dimensions. */
export interface LdaMap {
  reduced: Float64Array;
  out: number;
}

/**
 * Step 4: shrinks the within-class scatter towards a multiple of the identity (`shrinkage`), whitens
 * it, and keeps the leading eigenvectors of the whitened between-class scatter: `out` directions
 * (`dimensions`, at most k − 1 and r). Changes `scatter.within` in place.
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
  const sw = symmetricEigen(within, r);
  const minimum = Math.max(sw.values[0]! * 1e-10, 1e-12);
  const whiten = new Float64Array(r * r);
  for (let a = 0; a < r; a++)
    for (let b = 0; b < r; b++)
      whiten[a * r + b] = sw.vectors[a * r + b]! / Math.sqrt(Math.max(sw.values[b]!, minimum));
  const weighted = new Float64Array(k * r);
  for (let c = 0; c < k; c++) {
    const scale = Math.sqrt(sizes[c]! / n);
    for (let a = 0; a < r; a++) weighted[c * r + a] = means[c * r + a]! * scale;
  }
  const whitenedMeans = multiply(weighted, whiten, k, r, r); // k×r
  const between = new Float64Array(r * r);
  for (let c = 0; c < k; c++) {
    for (let a = 0; a < r; a++) {
      const value = whitenedMeans[c * r + a]!;
      if (value === 0) continue;
      for (let b = a; b < r; b++) between[a * r + b]! += value * whitenedMeans[c * r + b]!;
    }
  }
  for (let a = 0; a < r; a++) for (let b = a + 1; b < r; b++) between[b * r + a] = between[a * r + b]!;
  const sb = symmetricEigen(between, r);
  const out = Math.max(1, Math.min(dimensions ?? k - 1, k - 1, r));
  const directions = new Float64Array(r * out);
  for (let a = 0; a < r; a++) for (let o = 0; o < out; o++) directions[a * out + o] = sb.vectors[a * r + o]!;
  return { reduced: multiply(whiten, directions, r, r, out), out };
}
