import { describe, expect, test } from 'vitest';
import { gaussian, toSparse } from './linear-algebra.js';
import { gramKernel, reduceKernel, scatterKernel, toCsr } from './parallel.js';

/**
 * The products' kernels against the plain dense sums they stand for: rows with a dense part every
 * row holds and sparse columns few share (as USE-lite + hashed rows are), a row count that is not a
 * multiple of the four rows the kernels take at a time, and an empty row.
 */
const random = gaussian(7);
const n = 23;
const d = 40;
const k = 6;
const dense: number[][] = [];
for (let i = 0; i < n; i++) {
  const row = new Array<number>(d).fill(0);
  if (i !== 5) {
    for (let j = 0; j < 8; j++) row[j] = random();
    for (let j = 8; j < d; j++) if (random() > 1.2) row[j] = random();
  }
  dense.push(row);
}
const csr = toCsr(dense.map((row) => toSparse(row)));
const b = Float64Array.from({ length: d * k }, () => random());

function close(actual: Float64Array, expected: Float64Array): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) expect(actual[i]).toBeCloseTo(expected[i]!, 10);
}

describe('the fit kernels (four rows at a time) give the plain sums', () => {
  test('scatter: Xᵀ(X·B) over a range of rows', () => {
    for (const [start, end] of [
      [0, n],
      [3, 18],
      [5, 6],
    ] as const) {
      const expected = new Float64Array(d * k);
      for (let i = start; i < end; i++) {
        const xb = new Array<number>(k).fill(0);
        for (let j = 0; j < d; j++) for (let c = 0; c < k; c++) xb[c]! += dense[i]![j]! * b[j * k + c]!;
        for (let j = 0; j < d; j++)
          for (let c = 0; c < k; c++) expected[j * k + c]! += dense[i]![j]! * xb[c]!;
      }
      const out = new Float64Array(d * k);
      scatterKernel(csr.indptr, csr.indices, csr.values, b, k, out, start, end);
      close(out, expected);
    }
  });

  test('reduce: the rows of X·Q', () => {
    const expected = new Float64Array(n * k);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < d; j++)
        for (let c = 0; c < k; c++) expected[i * k + c]! += dense[i]![j]! * b[j * k + c]!;
    const out = new Float64Array(n * k);
    reduceKernel(csr.indptr, csr.indices, csr.values, b, k, out, 0, n, 0);
    close(out, expected);
  });

  test('reduce with a whole part: the first columns as they are, X·Q of the rest beside them', () => {
    // The basis is block-diagonal: the identity on the 8 dense columns, Q ((d − 8)×k) on the rest.
    const whole = 8;
    const r = whole + k;
    const q = b.subarray(0, (d - whole) * k);
    const expected = new Float64Array(n * r);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < whole; j++) expected[i * r + j] = dense[i]![j]!;
      for (let j = whole; j < d; j++)
        for (let c = 0; c < k; c++) expected[i * r + whole + c]! += dense[i]![j]! * q[(j - whole) * k + c]!;
    }
    const out = new Float64Array(n * r);
    reduceKernel(csr.indptr, csr.indices, csr.values, q, r, out, 0, n, whole);
    close(out, expected);
  });

  test('gram: the upper triangle of Σ zᵢzᵢᵀ', () => {
    const z = Float64Array.from({ length: n * k }, () => random());
    for (const [start, end] of [
      [0, n],
      [2, 9],
    ] as const) {
      const expected = new Float64Array(k * k);
      for (let i = start; i < end; i++)
        for (let a = 0; a < k; a++)
          for (let c = a; c < k; c++) expected[a * k + c]! += z[i * k + a]! * z[i * k + c]!;
      const out = new Float64Array(k * k);
      gramKernel(z, k, out, start, end);
      close(out, expected);
    }
  });
});
