import { defineTree, HashedEmbedder } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { exactPca } from './exact-pca.js';
import { fitProjection } from './fit-projection.js';
import { gaussian, symmetricEigen } from './linear-algebra.js';
import { toCsr } from './parallel.js';

/** Sparse random rows (about a third of the entries non-zero) and their mean. */
function rows(n: number, d: number, seed: number) {
  const random = gaussian(seed);
  const sparse = Array.from({ length: n }, () => {
    const indices: number[] = [];
    const values: number[] = [];
    for (let a = 0; a < d; a++)
      if (Math.abs(random()) < 0.45) {
        indices.push(a);
        values.push(random() + (a % 7 === 0 ? 2 : 0));
      }
    return { indices: Int32Array.from(indices), values: Float64Array.from(values) };
  });
  const mean = new Float64Array(d);
  for (const row of sparse)
    for (let p = 0; p < row.indices.length; p++) mean[row.indices[p]!]! += row.values[p]! / n;
  return { csr: toCsr(sparse), mean, n, d };
}

describe('exactPca: the exact basis of small trees', () => {
  test('spans the leading eigenvectors of the centred scatter, with orthonormal columns', () => {
    const matrix = rows(30, 45, 3);
    const { n, d, csr, mean } = matrix;
    const r = 8;
    const basis = exactPca(matrix, r);
    expect(basis.r).toBe(r);
    const q = basis.q!;
    // The d×d centred scatter, densely, for reference.
    const dense = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < d; a++) dense[i * d + a] = -mean[a]!;
      for (let p = csr.indptr[i]!; p < csr.indptr[i + 1]!; p++)
        dense[i * d + csr.indices[p]!]! += csr.values[p]!;
    }
    const scatter = new Float64Array(d * d);
    for (let i = 0; i < n; i++)
      for (let a = 0; a < d; a++)
        for (let b = 0; b < d; b++) scatter[a * d + b]! += dense[i * d + a]! * dense[i * d + b]!;
    const reference = symmetricEigen(scatter, d);
    // Same subspace: the projector Q·Qᵀ equals V·Vᵀ over the r leading eigenvectors.
    for (let a = 0; a < d; a++)
      for (let b = 0; b < d; b++) {
        let fromExact = 0;
        let fromReference = 0;
        for (let c = 0; c < r; c++) {
          fromExact += q[a * r + c]! * q[b * r + c]!;
          fromReference += reference.vectors[a * d + c]! * reference.vectors[b * d + c]!;
        }
        expect(fromExact).toBeCloseTo(fromReference, 6);
      }
  });

  test('keeps no more columns than the rank of the centred rows', () => {
    const basis = exactPca(rows(6, 40, 5), 20);
    expect(basis.r).toBe(5); // 6 centred rows span 5 dimensions
  });

  test('a small tree fits the same projection whatever the seed; above exactPcaMaxChunks the seed matters', async () => {
    const words = ['ordine', 'spedizione', 'reso', 'rimborso', 'batteria', 'freni', 'catena', 'sella'];
    const random = gaussian(11);
    const pick = () => words[Math.floor(Math.abs(random() * 1000)) % words.length]!;
    const tree = defineTree({
      name: 'small',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        ...[0, 1, 2, 3].map((label) => ({
          id: 10 + label,
          type: 'emit' as const,
          parent: 2,
          name: `class-${label}`,
          chunks: Array.from({ length: 50 }, (_, i) => `${words[label * 2]} ${pick()} ${pick()} ${i}`),
          emit: { message: { type: 'static' as const, content: `${label}` } },
        })),
      ],
    });
    const base = new HashedEmbedder();
    // 200 chunks: the PCA keeps 64 of their 199 dimensions, so a randomised basis depends on its seed.
    const exact = await Promise.all([1, 2].map((seed) => fitProjection(tree, base, { seed, threads: 1 })));
    expect(exact[0]!.settings.exactPcaMaxChunks).toBe(512);
    expect(exact[0]!.hash).toBe(exact[1]!.hash);
    expect(exact[0]!.pca).toEqual({ method: 'exact', dimensions: 64 });
    const randomised = await Promise.all(
      [1, 2].map((seed) => fitProjection(tree, base, { seed, threads: 1, exactPcaMaxChunks: 0 })),
    );
    expect(randomised[0]!.hash).not.toBe(randomised[1]!.hash);
    expect(randomised[0]!.pca).toEqual({ method: 'randomised', dimensions: 64 });
  });
});
