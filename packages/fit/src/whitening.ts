import { multiply, symmetricEigen } from './linear-algebra.js';

/**
 * A whitening W of a symmetric positive-definite r×r matrix S (WᵀSW = I), applied without forming W
 * where it need not be.
 */
export interface Whitening {
  /** `rows` (count×r, row-major) times W. */
  rows(rows: Float64Array, count: number): Float64Array;
  /** W times `columns` (r×count, row-major). */
  back(columns: Float64Array, count: number): Float64Array;
}

/**
 * The whitening of `s` by its Cholesky factor (S = LLᵀ, W = L⁻ᵀ: r³/6 multiply-adds and triangular
 * solves), or by its eigen-decomposition (W = VΛ^(-1/2), eigenvalues floored) when S is too close to
 * singular for the factor — a within-class scatter with no shrinkage and fewer chunks than dimensions.
 */
export function whiteningOf(s: Float64Array, r: number): Whitening {
  return choleskyWhitening(s, r) ?? eigenWhitening(s, r);
}

/** W = L⁻ᵀ for S = LLᵀ; null when a pivot is not clearly positive. */
export function choleskyWhitening(s: Float64Array, r: number): Whitening | null {
  const factor = cholesky(s, r);
  if (!factor) return null;
  return {
    // y = m·L⁻ᵀ ⇔ L·yᵀ = mᵀ: forward substitution, one row at a time.
    rows(rows, count) {
      const out = new Float64Array(count * r);
      for (let c = 0; c < count; c++) {
        const at = c * r;
        for (let i = 0; i < r; i++) {
          let sum = rows[at + i]!;
          const li = i * r;
          for (let j = 0; j < i; j++) sum -= factor[li + j]! * out[at + j]!;
          out[at + i] = sum / factor[li + i]!;
        }
      }
      return out;
    },
    // X = L⁻ᵀ·D ⇔ Lᵀ·X = D: back substitution, every column at once.
    back(columns, count) {
      const out = Float64Array.from(columns);
      for (let i = r - 1; i >= 0; i--) {
        const row = i * count;
        for (let j = i + 1; j < r; j++) {
          const l = factor[j * r + i]!;
          if (l === 0) continue;
          const from = j * count;
          for (let o = 0; o < count; o++) out[row + o]! -= l * out[from + o]!;
        }
        const pivot = factor[i * r + i]!;
        for (let o = 0; o < count; o++) out[row + o]! /= pivot;
      }
      return out;
    },
  };
}

/** W = VΛ^(-1/2), eigenvalues floored at 1e-10 of the largest. */
export function eigenWhitening(s: Float64Array, r: number): Whitening {
  const eigen = symmetricEigen(s, r);
  const minimum = Math.max(eigen.values[0]! * 1e-10, 1e-12);
  const w = new Float64Array(r * r);
  for (let a = 0; a < r; a++)
    for (let b = 0; b < r; b++)
      w[a * r + b] = eigen.vectors[a * r + b]! / Math.sqrt(Math.max(eigen.values[b]!, minimum));
  return {
    rows: (rows, count) => multiply(rows, w, count, r, r),
    back: (columns, count) => multiply(w, columns, r, r, count),
  };
}

/** The lower Cholesky factor of `s` (r×r, row-major), or null when a pivot falls below 1e-10 of the largest diagonal entry. */
function cholesky(s: Float64Array, r: number): Float64Array | null {
  let largest = 0;
  for (let i = 0; i < r; i++) largest = Math.max(largest, s[i * r + i]!);
  if (!(largest > 0)) return null;
  const l = new Float64Array(r * r);
  for (let i = 0; i < r; i++) {
    const li = i * r;
    for (let j = 0; j <= i; j++) {
      const lj = j * r;
      let sum = s[li + j]!;
      for (let p = 0; p < j; p++) sum -= l[li + p]! * l[lj + p]!;
      if (i === j) {
        if (!(sum > largest * 1e-10)) return null;
        l[li + i] = Math.sqrt(sum);
      } else l[li + j] = sum / l[lj + j]!;
    }
  }
  return l;
}
