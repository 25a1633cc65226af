import { multiply } from './linear-algebra.js';
import type { PcaDescription } from './projection.js';

/**
 * The PCA basis, d×r with orthonormal columns: `q` (d×r), or null for the identity when d is
 * small. With `whole` (`FitOptions.wholePart`) the basis is block-diagonal: the identity on the
 * first `whole` base dimensions, and `q` ((d − whole)×(r − whole)) on the rest.
 */
export interface PcaBasis {
  q: Float64Array | null;
  r: number;
  method: PcaDescription['method'];
  whole?: number;
}

/** `xᵀ·basis` for one base vector `x` (d): its coordinates in the basis (r). */
export function coordinatesIn(basis: PcaBasis, x: Float64Array, d: number): Float64Array {
  const { q, r, whole = 0 } = basis;
  if (!q) return x;
  if (!whole) return multiply(x, q, 1, d, r);
  const out = new Float64Array(r);
  out.set(x.subarray(0, whole));
  out.set(multiply(x.subarray(whole), q, 1, d - whole, r - whole), whole);
  return out;
}

/** `basis·m`, m r×columns: a map of the basis's coordinates back in the base space (d×columns). */
export function fromBasis(basis: PcaBasis, m: Float64Array, d: number, columns: number): Float64Array {
  const { q, r, whole = 0 } = basis;
  if (!q) return m;
  if (!whole) return multiply(q, m, d, r, columns);
  const out = new Float64Array(d * columns);
  out.set(m.subarray(0, whole * columns));
  out.set(multiply(q, m.subarray(whole * columns), d - whole, r - whole, columns), whole * columns);
  return out;
}
