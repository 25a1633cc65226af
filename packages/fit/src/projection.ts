import { createHash } from 'node:crypto';
import type { FitClass } from './fit-classes.js';
import type { FitSettings } from './fit-settings.js';

/**
 * The PCA step of a fit: `exact` (at most `exactPcaMaxChunks` chunks), `randomised`, or `identity`
 * (the base space has no more dimensions than the PCA would keep).
 */
export interface PcaDescription {
  method: 'exact' | 'randomised' | 'identity';
  /** Dimensions the LDA sees: the whole part's (`whole`) and the PCA's. */
  dimensions: number;
  /** Leading base dimensions kept whole beside the PCA of the rest (`FitOptions.wholePart`). */
  whole?: number;
}

/** A fitted linear map `y = Aᵀx − b` from the (unit-normalised) base space to the fitted space. */
export interface Projection {
  baseId: string;
  /**
   * `fitKey` of the tree it was fitted on: its chunk texts and their classes. Names, thresholds,
   * messages and callbacks are not part of it, so changing them does not make the fit stale.
   */
  fitKey: string;
  /** Hash of the matrix, offset and base id: part of the embedder id. */
  hash: string;
  inputDimensions: number;
  outputDimensions: number;
  /** `A`, inputDimensions × outputDimensions, row-major. */
  matrix: Float32Array;
  /** `b = Aᵀμ`, μ the mean of the training chunks. */
  offset: Float32Array;
  settings: FitSettings;
  classes: FitClass[];
  /** Classes with fewer than `minChunksPerClass` chunks, left out of the fit. */
  excluded: FitClass[];
  /** Chunks the fit was trained on. */
  chunks: number;
  /** How the PCA basis was found, and its dimensions (absent in fits saved before it was recorded). */
  pca?: PcaDescription;
  milliseconds: number;
}

/** The hash of a projection: base id, matrix and offset (part of the fitted embedder's id). */
export function projectionHash(baseId: string, matrix: Float32Array, offset: Float32Array): string {
  return createHash('sha256')
    .update(baseId)
    .update(new Uint8Array(matrix.buffer))
    .update(new Uint8Array(offset.buffer))
    .digest('hex')
    .slice(0, 12);
}
