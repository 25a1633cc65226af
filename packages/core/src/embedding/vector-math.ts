import { TreeAgentError } from '../errors/tree-agent-error.js';

/** Anything indexable as a numeric vector: `Float32Array`, `Float64Array`, `number[]`. */
export type NumericVector = ArrayLike<number>;

function assertSameLength(a: NumericVector, b: NumericVector): void {
  if (a.length !== b.length) {
    throw new TreeAgentError('INVALID_INPUT', `Vector length mismatch: ${a.length} vs ${b.length}`, {
      details: { left: a.length, right: b.length },
    });
  }
}

/** Dot product of two vectors of the same length. Equals the cosine when both are unit length. */
export function dot(a: NumericVector, b: NumericVector): number {
  assertSameLength(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The pieces, each scaled to length `lengths[i]` (an all-zero piece stays zero), one after the
 * other: with lengths `√(wᵢ / Σw)`, the cosine of two such vectors is the `w`-weighted mean of the
 * pieces' cosines.
 */
export function concatScaled(pieces: readonly NumericVector[], lengths: readonly number[]): Float32Array {
  const out = new Float32Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  pieces.forEach((piece, index) => {
    const size = norm(piece);
    const scale = size > 0 ? lengths[index]! / size : 0;
    for (let i = 0; i < piece.length; i++) out[offset + i] = piece[i]! * scale;
    offset += piece.length;
  });
  return out;
}

/** Euclidean (L2) norm. */
export function norm(v: NumericVector): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  return Math.sqrt(sum);
}

/**
 * Cosine similarity in [-1, 1]. Returns 0 (never NaN) when either vector is all zeros.
 *
 * @example
 * cosineSimilarity([1, 0], [1, 1]); // ≈ 0.7071
 */
export function cosineSimilarity(a: NumericVector, b: NumericVector): number {
  assertSameLength(a, b);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  if (aa === 0 || bb === 0) return 0;
  const cosine = ab / Math.sqrt(aa * bb);
  // Rounding can push the value a hair past ±1; clamp so callers can rely on the range.
  return Math.min(1, Math.max(-1, cosine));
}

/**
 * Returns a new unit-length `Float32Array` pointing the same way as `v`.
 * An all-zero vector stays all zeros (no NaN). The input is not modified.
 */
export function normalize(v: NumericVector): Float32Array {
  const out = Float32Array.from(v);
  normalizeInPlace(out);
  return out;
}

/** Scales `v` to unit length in place and returns it; all-zero vectors are left as they are. */
export function normalizeInPlace<T extends Float32Array | Float64Array>(v: T): T {
  const length = norm(v);
  if (length === 0 || !Number.isFinite(length)) return v;
  const scale = 1 / length;
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * scale;
  return v;
}
