import { describe, expect, test } from 'vitest';
import type { ClassScatter } from './class-scatter.js';
import { gaussian, multiply, symmetricEigen } from './linear-algebra.js';
import { shrunkLda } from './shrunk-lda.js';
import { choleskyWhitening, eigenWhitening } from './whitening.js';

/** Reduced coordinates of `k` classes in `r` dimensions (`perClass` rows each), as `classScatter` returns them. */
function scatterOf(
  r: number,
  k: number,
  perClass: number,
  seed: number,
  sameMeans = false,
): ClassScatter & { n: number } {
  const random = gaussian(seed);
  const centres = Array.from({ length: k }, (_, c) =>
    Array.from({ length: r }, () => (sameMeans && c === 1 ? 0 : random() * 2)),
  );
  if (sameMeans) centres[1] = [...centres[0]!];
  const n = k * perClass;
  const rows = new Float64Array(n * r);
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = i % k;
    labels.push(c);
    // Correlated noise: each dimension leans on the one before.
    let previous = 0;
    for (let a = 0; a < r; a++) {
      previous = 0.6 * previous + random() * (1 + (a % 3));
      rows[i * r + a] = centres[c]![a]! + previous;
    }
  }
  const total = new Float64Array(r);
  for (let i = 0; i < n; i++) for (let a = 0; a < r; a++) total[a]! += rows[i * r + a]! / n;
  const sizes = new Float64Array(k);
  const means = new Float64Array(k * r);
  for (let i = 0; i < n; i++) {
    sizes[labels[i]!]!++;
    for (let a = 0; a < r; a++) means[labels[i]! * r + a]! += rows[i * r + a]! - total[a]!;
  }
  for (let c = 0; c < k; c++) for (let a = 0; a < r; a++) means[c * r + a]! /= sizes[c]!;
  const within = new Float64Array(r * r);
  const residuals = new Float64Array(n * r);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    for (let a = 0; a < r; a++) {
      const x = rows[i * r + a]! - total[a]! - means[c * r + a]!;
      residuals[i * r + a] = x;
      for (let b = 0; b < r; b++)
        within[a * r + b]! += (x * (rows[i * r + b]! - total[b]! - means[c * r + b]!)) / n;
    }
  }
  let trace = 0;
  for (let a = 0; a < r; a++) trace += within[a * r + a]!;
  return { sizes, means, within, trace, residuals, n };
}

/** The textbook LDA the fit did until 2026-12-07: whiten by the eigen-decomposition, then the r×r eigenvectors of the whitened between-class scatter. */
function referenceLda(
  scatter: ClassScatter,
  n: number,
  r: number,
  k: number,
  shrinkage: number,
): Float64Array {
  const within = Float64Array.from(scatter.within);
  const floor = (shrinkage * scatter.trace) / r;
  for (let i = 0; i < r * r; i++) within[i]! *= 1 - shrinkage;
  for (let a = 0; a < r; a++) within[a * r + a]! += floor;
  const sw = symmetricEigen(within, r);
  const whiten = new Float64Array(r * r);
  for (let a = 0; a < r; a++)
    for (let b = 0; b < r; b++) whiten[a * r + b] = sw.vectors[a * r + b]! / Math.sqrt(sw.values[b]!);
  const weighted = new Float64Array(k * r);
  for (let c = 0; c < k; c++)
    for (let a = 0; a < r; a++)
      weighted[c * r + a] = scatter.means[c * r + a]! * Math.sqrt(scatter.sizes[c]! / n);
  const b = multiply(weighted, whiten, k, r, r);
  const between = new Float64Array(r * r);
  for (let c = 0; c < k; c++)
    for (let a = 0; a < r; a++)
      for (let e = 0; e < r; e++) between[a * r + e]! += b[c * r + a]! * b[c * r + e]!;
  const sb = symmetricEigen(between, r);
  const out = k - 1;
  const directions = new Float64Array(r * out);
  for (let a = 0; a < r; a++) for (let o = 0; o < out; o++) directions[a * out + o] = sb.vectors[a * r + o]!;
  return multiply(whiten, directions, r, r, out);
}

/** Whether two r×out maps have the same columns, each up to its sign. */
function expectSameColumns(actual: Float64Array, expected: Float64Array, r: number, out: number) {
  for (let o = 0; o < out; o++) {
    let dot = 0;
    for (let a = 0; a < r; a++) dot += actual[a * out + o]! * expected[a * out + o]!;
    const sign = Math.sign(dot);
    for (let a = 0; a < r; a++) expect(actual[a * out + o]!).toBeCloseTo(sign * expected[a * out + o]!, 8);
  }
}

describe('shrunkLda: the discriminant directions', () => {
  test('are the textbook LDA directions (two r×r eigen-decompositions) up to sign, from the k×k Gram of the whitened means', () => {
    const r = 24;
    const k = 6;
    const scatter = scatterOf(r, k, 20, 5);
    const expected = referenceLda(scatter, scatter.n, r, k, 0.2);
    const lda = shrunkLda(
      { ...scatter, within: Float64Array.from(scatter.within) },
      scatter.n,
      r,
      k,
      0.2,
      null,
    );
    expect(lda.out).toBe(k - 1);
    expectSameColumns(lda.reduced, expected, r, k - 1);
  });

  test('are the same when there are more classes than dimensions (the scatter path)', () => {
    const r = 5;
    const k = 9;
    const scatter = scatterOf(r, k, 12, 8);
    const lda = shrunkLda(
      { ...scatter, within: Float64Array.from(scatter.within) },
      scatter.n,
      r,
      k,
      0.2,
      null,
    );
    expect(lda.out).toBe(r);
    const expected = referenceLda(scatter, scatter.n, r, k, 0.2);
    // The reference keeps k − 1 columns of which the first r are the directions.
    const firstR = new Float64Array(r * r);
    for (let a = 0; a < r; a++) for (let o = 0; o < r; o++) firstR[a * r + o] = expected[a * (k - 1) + o]!;
    expectSameColumns(lda.reduced, firstR, r, r);
  });

  test('whiten the within-class scatter and diagonalise the between-class one even when two classes share a mean', () => {
    const r = 12;
    const k = 4;
    const scatter = scatterOf(r, k, 15, 11, true);
    const shrunk = Float64Array.from(scatter.within);
    const lda = shrunkLda({ ...scatter, within: shrunk }, scatter.n, r, k, 0.2, null);
    // shrunk now holds the shrunk within-class scatter: DᵀSwD = I.
    const out = lda.out;
    expect(out).toBe(k - 1);
    const swd = multiply(shrunk, lda.reduced, r, r, out);
    for (let o = 0; o < out; o++)
      for (let p = 0; p < out; p++) {
        let dot = 0;
        for (let a = 0; a < r; a++) dot += lda.reduced[a * out + o]! * swd[a * out + p]!;
        expect(dot).toBeCloseTo(o === p ? 1 : 0, 8);
      }
  });
});

describe('whitening', () => {
  const r = 10;
  const scatter = scatterOf(r, 3, 20, 2).within;

  test.each([
    ['Cholesky', choleskyWhitening(scatter, r)!],
    ['eigen', eigenWhitening(scatter, r)],
  ])('%s: WᵀSW = I, and rows·W and W·columns agree on the same W', (_name, whitening) => {
    const identity = new Float64Array(r * r);
    for (let a = 0; a < r; a++) identity[a * r + a] = 1;
    const w = whitening.back(identity, r); // W itself
    const fromRows = whitening.rows(identity, r); // I·W
    for (let i = 0; i < r * r; i++) expect(fromRows[i]!).toBeCloseTo(w[i]!, 10);
    const sw = multiply(scatter, w, r, r, r);
    for (let a = 0; a < r; a++)
      for (let b = 0; b < r; b++) {
        let dot = 0;
        for (let i = 0; i < r; i++) dot += w[i * r + a]! * sw[i * r + b]!;
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 8);
      }
  });

  test('the Cholesky factor declines a singular matrix (then the eigen whitening floors it)', () => {
    const singular = new Float64Array(r * r);
    for (let a = 0; a < r; a++) for (let b = 0; b < r; b++) singular[a * r + b] = (a + 1) * (b + 1);
    expect(choleskyWhitening(singular, r)).toBeNull();
    const w = eigenWhitening(singular, r).back(new Float64Array(r * r).fill(1), r);
    expect(w.every(Number.isFinite)).toBe(true);
  });
});
