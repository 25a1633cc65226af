import type { PcaDescription } from './projection.js';

/** The PCA basis: `q` (d×r, orthonormal columns), or null for the identity when d is small. */
export interface PcaBasis {
  q: Float64Array | null;
  r: number;
  method: PcaDescription['method'];
}
