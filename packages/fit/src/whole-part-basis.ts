import type { TrainingMatrix } from './centred-scatter.js';
import type { FitSettings, WholePart } from './fit-settings.js';
import { type Csr, sharedFloat64 } from './parallel.js';
import type { PcaBasis } from './pca-basis.js';
import { pcaBound, randomisedPca } from './randomised-pca.js';

/**
 * Step 2 with `FitSettings.wholePart`: the basis that keeps the base's first `dimensions` whole
 * (USE-lite's dense part) and reduces the rest (the hashed n-grams) by a randomised PCA of the
 * rest alone, so the LDA sees both blocks side by side. Null when it does not apply — not asked
 * for, a base no wider than the two blocks, or a tree too small for their dimensions (`pcaBound`)
 * — and the fit takes the one PCA of the whole base (`randomisedPca`).
 *
 * Why: one PCA of USE-lite + hashed spends its dimensions on the dense part's variance, and its
 * scatter products pass over the 512 dense columns of every row; the rest alone is sparse. By 5-fold
 * cross-validation on CLINC150 `train` the LDA over both blocks routes as well or better, for less
 * math (docs/routing.md, "The base of the fit").
 */
export async function wholePartBasis(
  matrix: TrainingMatrix,
  classes: number,
  settings: FitSettings,
  signal: AbortSignal | undefined,
  onStep: () => void,
): Promise<PcaBasis | null> {
  const part = settings.wholePart;
  if (!part) return null;
  const { dimensions: whole, pcaOfRest } = part;
  const { csr, mean, n, d, pool } = matrix;
  if (d - whole <= pcaOfRest || !wholePartFits(n, classes, part)) return null;
  const rest: TrainingMatrix = {
    csr: columnsFrom(csr, whole),
    mean: mean.slice(whole),
    n,
    d: d - whole,
    pool,
  };
  const basis = await randomisedPca(rest, classes, { ...settings, pcaDimensions: pcaOfRest }, signal, onStep);
  if (!basis.q) return null;
  return { q: basis.q, r: whole + basis.r, method: basis.method, whole };
}

/**
 * Whether `chunks` training chunks in `classes` classes support the two blocks' dimensions
 * (`pcaBound`: about 3,100 chunks for USE-lite's 512 beside 256); a smaller tree gets the one PCA.
 */
export function wholePartFits(chunks: number, classes: number, part: WholePart): boolean {
  return pcaBound(chunks, classes) >= part.dimensions + part.pcaOfRest;
}

/** The columns `first`… of the rows, numbered from 0, in shared memory. */
function columnsFrom(csr: Csr, first: number): Csr {
  let kept = 0;
  for (let j = 0; j < csr.indptr[csr.rows]!; j++) if (csr.indices[j]! >= first) kept++;
  const indptr = new Int32Array(new SharedArrayBuffer((csr.rows + 1) * 4));
  const indices = new Int32Array(new SharedArrayBuffer(Math.max(1, kept) * 4));
  const values = sharedFloat64(Math.max(1, kept));
  let at = 0;
  for (let i = 0; i < csr.rows; i++) {
    indptr[i] = at;
    for (let j = csr.indptr[i]!; j < csr.indptr[i + 1]!; j++) {
      if (csr.indices[j]! < first) continue;
      indices[at] = csr.indices[j]! - first;
      values[at++] = csr.values[j]!;
    }
  }
  indptr[csr.rows] = at;
  return { rows: csr.rows, indptr, indices, values };
}
