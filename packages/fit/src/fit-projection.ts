import type { Embedder, Tree } from '@treeagent/core';
import { baseVectors, EMBEDDING_BATCH } from './base-vectors.js';
import type { TrainingMatrix } from './centred-scatter.js';
import { classScatter } from './class-scatter.js';
import { fitKey, trainingSet } from './fit-classes.js';
import { type FitOptions, type FitProgress, fitSettings } from './fit-settings.js';
import { multiply } from './linear-algebra.js';
import { defaultThreads, Pool, toCsr } from './parallel.js';
import { type Projection, projectionHash } from './projection.js';
import { randomisedPca } from './randomised-pca.js';
import { shrunkLda } from './shrunk-lda.js';

/**
 * Fits a linear projection of the base embedder's space on the tree's own chunks, each labelled with
 * the node that holds it (or its ancestor at a given depth): randomised PCA to `pcaDimensions`, then
 * LDA with a shrunk within-class scatter. Routing by cosine in the fitted space separates the
 * classes better than the base space. The steps, one module each: `trainingSet` (fit-classes.ts),
 * `baseVectors`, `randomisedPca`, `classScatter`, `shrunkLda`.
 *
 * @example
 * const projection = await fitProjection(tree, new HashedEmbedder());
 * const embedder = new FittedEmbedder(new HashedEmbedder(), projection);
 */
export async function fitProjection(
  tree: Tree,
  base: Embedder,
  options: FitOptions = {},
): Promise<Projection> {
  const started = performance.now();
  const settings = fitSettings(options);
  const training = trainingSet(tree, settings);
  const total = Math.ceil(training.texts.length / EMBEDDING_BATCH) + settings.powerIterations + 4;
  let done = 0;
  const progress = (phase: FitProgress['phase']) => () =>
    options.onProgress?.({ phase, done: ++done, total });

  // 1. Base vectors (unit length), kept sparse, and their mean.
  const vectors = await baseVectors(training.texts, base, options, progress('embedding'));
  const { mean, dimensions: d } = vectors;
  const n = vectors.rows.length;
  const pool = new Pool(Math.max(1, Math.floor(options.threads ?? defaultThreads())));
  try {
    const csr = toCsr(vectors.rows);
    vectors.rows.length = 0;
    const matrix: TrainingMatrix = { csr, mean, n, d, pool };
    // 2. PCA basis Q (d×r).
    const k = training.classes.length;
    const basis = await randomisedPca(matrix, k, settings, options.signal, progress('pca'));
    // 3. Class means and within-class scatter in the reduced space.
    const scatter = await classScatter(matrix, basis, training.labels, k, progress('lda'));
    // 4. Shrunk, whitened LDA.
    const lda = shrunkLda(scatter, n, basis.r, k, settings.shrinkage, settings.dimensions);
    progress('lda')();
    const full = basis.q ? multiply(basis.q, lda.reduced, d, basis.r, lda.out) : lda.reduced; // d×out
    const projectionMatrix = Float32Array.from(full);
    const offset = Float32Array.from(multiply(mean, full, 1, d, lda.out));
    progress('lda')();
    return {
      baseId: base.id,
      fitKey: fitKey(tree, settings.classes),
      hash: projectionHash(base.id, projectionMatrix, offset),
      inputDimensions: d,
      outputDimensions: lda.out,
      matrix: projectionMatrix,
      offset,
      settings,
      classes: training.classes.map(training.describe),
      excluded: training.excluded.map(training.describe),
      chunks: n,
      milliseconds: performance.now() - started,
    };
  } finally {
    await pool.close();
  }
}
