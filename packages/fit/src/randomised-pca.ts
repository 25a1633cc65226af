import { scatterTimes, type TrainingMatrix } from './centred-scatter.js';
import { exactPca } from './exact-pca.js';
import type { FitSettings } from './fit-settings.js';
import { gaussian, orthonormalColumns } from './linear-algebra.js';
import { choleskyQr } from './parallel.js';
import type { PcaBasis } from './pca-basis.js';

/**
 * The most PCA dimensions `n` chunks in `k` classes can support: the within-class scatter has
 * `n − k` degrees of freedom, and a basis wider than a quarter of them only fits noise (and costs:
 * 300 chunks took 3.8 s at 512 dimensions, 0.3 s at 64). Never below 64, nor below `k` (the LDA
 * keeps `k − 1`). 15,000 chunks in 150 classes keep the default 512.
 */
export function pcaBound(n: number, k: number): number {
  return Math.max(64, k, Math.floor((n - k) / 4));
}

/**
 * Step 2: the PCA basis: exact (`exactPca`) for at most `exactPcaMaxChunks` chunks, else by a randomised range finder with power iterations on the centred scatter
 * (one progress step per iteration), or the identity when `pcaDimensions` keeps every dimension.
 */
export async function randomisedPca(
  matrix: TrainingMatrix,
  /** Classes of the fit (they bound the dimensions, see `pcaBound`). */
  classes: number,
  settings: Pick<FitSettings, 'pcaDimensions' | 'powerIterations' | 'seed' | 'exactPcaMaxChunks'>,
  signal: AbortSignal | undefined,
  onStep: () => void,
): Promise<PcaBasis> {
  const { d, n, pool } = matrix;
  let r = Math.min(settings.pcaDimensions, d, n - 1, pcaBound(n, classes));
  if (r >= d) {
    onStep();
    return { q: null, r: d, method: 'identity' };
  }
  if (n <= settings.exactPcaMaxChunks) {
    signal?.throwIfAborted();
    const basis = exactPca(matrix, r);
    for (let iteration = 0; iteration <= settings.powerIterations; iteration++) onStep();
    return basis;
  }
  const random = gaussian(settings.seed);
  let current: Float64Array = new Float64Array(d * r);
  for (let i = 0; i < current.length; i++) current[i] = random();
  for (let iteration = 0; iteration <= settings.powerIterations; iteration++) {
    signal?.throwIfAborted();
    const product = await scatterTimes(matrix, current, r);
    const fast = await choleskyQr(pool, product, d, r);
    if (fast) current = fast;
    else {
      const orthonormal = orthonormalColumns(product, d, r);
      current = orthonormal.q;
      r = orthonormal.k;
    }
    onStep();
  }
  return { q: current, r, method: 'randomised' };
}
