import type { TrainingMatrix } from './centred-scatter.js';
import { classScatter } from './class-scatter.js';
import type { FitProgress, FitSettings } from './fit-settings.js';
import { multiply } from './linear-algebra.js';
import type { Csr } from './parallel.js';
import { Pool } from './parallel.js';
import { fromBasis } from './pca-basis.js';
import type { PcaDescription } from './projection.js';
import { refineByProxies } from './proxy-refinement.js';
import { randomisedPca } from './randomised-pca.js';
import { shrunkLda } from './shrunk-lda.js';
import { wholePartBasis } from './whole-part-basis.js';

/**
 * The math of a fit, once the training chunks are embedded: everything in it can be sent to a worker
 * thread (the rows are in shared memory), so `fitInWorker` runs it off the thread that serves.
 */
export interface VectorsToProject {
  /** The unit base vectors of the training chunks, as sparse rows in shared memory. */
  csr: Csr;
  /** Their mean (d). */
  mean: Float64Array;
  /** Dimensions of the base space. */
  d: number;
  /** Class index of each row. */
  labels: readonly number[];
  /** Number of classes. */
  classes: number;
  settings: FitSettings;
  /** Threads for the matrix products (this one plus workers). */
  threads: number;
}

/** The fitted map: `matrix` d×out row-major, `offset` = meanᵀ·matrix. */
export interface ProjectedFit {
  matrix: Float32Array;
  offset: Float32Array;
  outputDimensions: number;
  pca: PcaDescription;
}

/**
 * Steps 2–4 of `fitProjection`: the PCA basis, the class scatter in it, the shrunk LDA, and the
 * projection back in the base space. `onStep` runs after each step (`FitProgress.phase`). With
 * `settings.refine`, step 5 refines the LDA's map on the chunks (`refineByProxies`); `onUnrefined`
 * receives the LDA's own fit before it, to route with meanwhile.
 */
export async function projectVectors(
  input: VectorsToProject,
  onStep: (phase: FitProgress['phase']) => void = () => {},
  signal?: AbortSignal,
  onUnrefined?: (fit: ProjectedFit) => void,
): Promise<ProjectedFit> {
  const { csr, mean, d, labels, classes: k, settings } = input;
  const n = csr.rows;
  const pool = new Pool(Math.max(1, Math.floor(input.threads)));
  try {
    const matrix: TrainingMatrix = { csr, mean, n, d, pool };
    const pcaStep = () => onStep('pca');
    const basis =
      (await wholePartBasis(matrix, k, settings, signal, pcaStep)) ??
      (await randomisedPca(matrix, k, settings, signal, pcaStep));
    const scatter = await classScatter(matrix, basis, labels, k, () => onStep('lda'));
    const lda = shrunkLda(scatter, n, basis.r, k, settings.shrinkage, settings.dimensions);
    onStep('lda');
    const pca: PcaDescription = {
      method: basis.method,
      dimensions: basis.r,
      ...(basis.whole ? { whole: basis.whole } : {}),
    };
    const toFit = (reduced: Float64Array): ProjectedFit => {
      const full = fromBasis(basis, reduced, d, lda.out); // d×out
      const offset = Float32Array.from(multiply(mean, full, 1, d, lda.out));
      return { matrix: Float32Array.from(full), offset, outputDimensions: lda.out, pca };
    };
    // The LDA's own map first, for the caller to route with while it is refined (seconds more).
    if (settings.refine && onUnrefined) onUnrefined(toFit(lda.reduced));
    const reduced = settings.refine
      ? await refineByProxies({
          residuals: scatter.residuals,
          means: scatter.means,
          labels,
          n,
          r: basis.r,
          k,
          map: lda.reduced,
          out: lda.out,
          settings: settings.refine,
          seed: settings.seed,
          pool,
          ...(signal ? { signal } : {}),
          onEpoch: () => onStep('lda'),
        })
      : lda.reduced;
    const fitted = toFit(reduced);
    onStep('lda');
    return fitted;
  } finally {
    await pool.close();
  }
}
