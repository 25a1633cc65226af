import { describe, expect, test } from 'vitest';
import { fitSettings, type WholePart } from './fit-settings.js';
import { gaussian, toSparse } from './linear-algebra.js';
import { toCsr } from './parallel.js';
import { projectVectors } from './project-vectors.js';

/**
 * Rows shaped as USE-lite + hashed: a dense part of 4 dimensions whose first one alone tells the 3
 * classes apart (with little variance), beside 60 dimensions of loud noise that tell nothing. One
 * PCA of both keeps the noise's directions and loses the class; keeping the dense part whole keeps it.
 */
function rows(n: number) {
  const random = gaussian(11);
  const d = 64;
  const labels: number[] = [];
  const dense: number[][] = [];
  for (let i = 0; i < n; i++) {
    const label = i % 3;
    const row = new Array<number>(d).fill(0);
    row[0] = 0.3 * label + 0.03 * random();
    for (let a = 1; a < 4; a++) row[a] = 0.03 * random();
    for (let a = 4; a < d; a++) row[a] = random();
    labels.push(label);
    dense.push(row);
  }
  const mean = new Float64Array(d);
  for (const row of dense) for (let a = 0; a < d; a++) mean[a]! += row[a]! / n;
  return { csr: toCsr(dense.map((row) => toSparse(row))), dense, mean, d, labels };
}

/** Share of the rows whose nearest class mean, in the fitted space, is their own class. */
async function separated(n: number, wholePart?: WholePart) {
  const { csr, dense, mean, d, labels } = rows(n);
  const settings = fitSettings({ pcaDimensions: 8, ...(wholePart ? { wholePart } : {}) });
  const fit = await projectVectors({ csr, mean, d, labels, classes: 3, settings, threads: 1 });
  const out = fit.outputDimensions;
  const projected = dense.map((row) => {
    const y = new Float64Array(out);
    for (let a = 0; a < d; a++) for (let o = 0; o < out; o++) y[o]! += row[a]! * fit.matrix[a * out + o]!;
    for (let o = 0; o < out; o++) y[o]! -= fit.offset[o]!;
    return y;
  });
  const means = [0, 1, 2].map((c) => {
    const m = new Float64Array(out);
    projected.forEach((y, i) => {
      if (labels[i] === c) for (let o = 0; o < out; o++) m[o]! += y[o]!;
    });
    return m;
  });
  const distance = (y: Float64Array, m: Float64Array) =>
    y.reduce((sum, v, o) => sum + (v - m[o]! / (n / 3)) ** 2, 0);
  const right = projected.filter((y, i) => {
    const nearest = [0, 1, 2].sort((a, b) => distance(y, means[a]!) - distance(y, means[b]!))[0];
    return nearest === labels[i];
  }).length;
  return { right: right / n, pca: fit.pca };
}

describe('wholePart: the dense part of the base whole, beside a PCA of the rest', () => {
  test('keeps a direction of the dense part that one PCA of the whole base drops', async () => {
    const joint = await separated(600);
    const whole = await separated(600, { dimensions: 4, pcaOfRest: 4 });
    expect(joint.pca).toEqual({ method: 'randomised', dimensions: 8 });
    expect(whole.pca).toEqual({ method: 'randomised', dimensions: 8, whole: 4 });
    expect(whole.right).toBeGreaterThan(0.9);
    expect(joint.right).toBeLessThan(0.6);
  });

  test('a rest no wider than its PCA: the one PCA, as without it', async () => {
    const joint = await separated(90);
    const asked = await separated(90, { dimensions: 4, pcaOfRest: 60 });
    expect(asked.pca).toEqual(joint.pca);
    expect(asked.right).toBe(joint.right);
  });

  test('its settings are checked', () => {
    expect(() => fitSettings({ wholePart: { dimensions: 0, pcaOfRest: 4 } })).toThrow(
      /wholePart.dimensions and wholePart.pcaOfRest must be positive integers/,
    );
    expect(fitSettings({ wholePart: false })).not.toHaveProperty('wholePart');
  });
});
