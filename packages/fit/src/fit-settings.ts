import { TreeAgentError } from '@treeagent/core';
import type { EmbeddingCache } from '@treeagent/core/adapter';

/**
 * Up to this many training chunks the PCA is exact (`exactPca`) rather than randomised: the n×n
 * eigen-decomposition is no larger than the 512×512 ones the fit already does, and a randomised
 * basis of a small tree is a draw — on the Italian intent set (192 chunks) ten seeds of the
 * randomised PCA gave out-of-scope recalls from 0.25 to 0.48 (docs/routing.md, "Italian").
 */
export const DEFAULT_EXACT_PCA_MAX_CHUNKS = 512;

/** Which nodes define the classes of the fit. */
export type FitClasses = 'nodes' | { depth: number };

export interface FitOptions {
  /**
   * `'nodes'` (default): each chunk's class is the node holding it. `{ depth: n }`: the ancestor at
   * depth n (root = 0) of that node, or the node itself when it is shallower.
   */
  classes?: FitClasses;
  /** Classes with fewer chunks are left out of the fit (their chunks are still projected). Default 2. */
  minChunksPerClass?: number;
  /** Dimensions kept by the PCA before the LDA, at most. Default 512; fewer chunks keep fewer (`pcaBound`). */
  pcaDimensions?: number;
  /**
   * Shrinkage of the within-class scatter towards a multiple of the identity, 0…1. Default 0.2 (the
   * value 5-fold cross-validation on CLINC150 train prefers with the hashed embedder).
   */
  shrinkage?: number;
  /** Output dimensions (at most classes − 1, the default). */
  dimensions?: number;
  /**
   * Keeps the first `dimensions` of the base whole (a dense neural part of a `ConcatEmbedder`, such
   * as USE-lite's 512) and reduces only the rest (the hashed n-grams) by a randomised PCA to
   * `pcaOfRest` dimensions; the LDA then sees both blocks side by side, instead of one PCA of the
   * whole base to `pcaDimensions`. Used only when the tree has chunks enough for `dimensions +
   * pcaOfRest` (`pcaBound`); a smaller tree gets the one PCA. Default: none (the `'auto'` base asks
   * for it over USE-lite + hashed; docs/routing.md, "The base of the fit").
   */
  wholePart?: WholePart | false;
  /**
   * After the LDA, sharpens its map by gradient descent on the tree's own chunks (a normalised
   * softmax of each chunk against one proxy per class; `refineByProxies`). Default: none (the
   * `'auto'` base asks for it over USE-lite + hashed with the part kept whole: docs/routing.md, "A map
   * learned on the chunks").
   */
  refine?: ProxyRefinement | false;
  /** Power iterations of the randomised PCA. Default 1. */
  powerIterations?: number;
  /** Seed of the randomised PCA. Default 1. */
  seed?: number;
  /**
   * Up to this many training chunks the PCA is exact (deterministic: `seed` and `powerIterations`
   * do not matter) rather than randomised. Default `DEFAULT_EXACT_PCA_MAX_CHUNKS` (512); 0: always randomised.
   */
  exactPcaMaxChunks?: number;
  /**
   * Threads for the matrix products (the calling thread plus worker threads). Default: the cores,
   * at most 4. The result does not depend on it beyond rounding.
   */
  threads?: number;
  /** Cache of the base embedder's vectors (chunks are embedded once across fits and restarts). */
  embeddingCache?: EmbeddingCache;
  /** Progress: `done` of `total` steps, with the current phase. */
  onProgress?: (progress: FitProgress) => void;
  signal?: AbortSignal;
}

export interface FitProgress {
  phase: 'embedding' | 'pca' | 'lda';
  done: number;
  total: number;
}

/** See `FitOptions.wholePart`. */
export interface WholePart {
  /** Leading base dimensions that enter the LDA whole. */
  dimensions: number;
  /** Dimensions the PCA of the remaining base dimensions keeps. */
  pcaOfRest: number;
}

/** See `FitOptions.refine`. */
export interface ProxyRefinement {
  /** The softmax's scale: logits are `scale` × cosine. */
  scale: number;
  /** Passes over the chunks. */
  epochs: number;
  /** Chunks per step. */
  batch: number;
  /** Adam's step, relative to the LDA map's root mean square (the proxies': to 1/√dimensions). */
  learningRate: number;
}

/** The options that change the result, as stored with a fit. */
export interface FitSettings {
  classes: FitClasses;
  minChunksPerClass: number;
  pcaDimensions: number;
  shrinkage: number;
  dimensions: number | null;
  /** See `FitOptions.wholePart`; absent when not used (then the settings, and the fit's key, are the one PCA's). */
  wholePart?: WholePart;
  /** See `FitOptions.refine`; absent when not used (then the fit's key is the LDA's alone). */
  refine?: ProxyRefinement;
  powerIterations: number;
  seed: number;
  /** See `FitOptions.exactPcaMaxChunks`. Fits stored before it had none and are refitted once. */
  exactPcaMaxChunks: number;
}

/** The settings of a fit, defaults filled in. */
export function fitSettings(options: FitOptions = {}): FitSettings {
  const settings: FitSettings = {
    classes: options.classes ?? 'nodes',
    minChunksPerClass: options.minChunksPerClass ?? 2,
    pcaDimensions: options.pcaDimensions ?? 512,
    shrinkage: options.shrinkage ?? 0.2,
    dimensions: options.dimensions ?? null,
    ...(options.wholePart
      ? { wholePart: { dimensions: options.wholePart.dimensions, pcaOfRest: options.wholePart.pcaOfRest } }
      : {}),
    ...(options.refine
      ? {
          refine: {
            scale: options.refine.scale,
            epochs: options.refine.epochs,
            batch: options.refine.batch,
            learningRate: options.refine.learningRate,
          },
        }
      : {}),
    powerIterations: options.powerIterations ?? 1,
    seed: options.seed ?? 1,
    exactPcaMaxChunks: options.exactPcaMaxChunks ?? DEFAULT_EXACT_PCA_MAX_CHUNKS,
  };
  if (!(settings.shrinkage >= 0 && settings.shrinkage <= 1))
    throw new TreeAgentError('INVALID_INPUT', 'fitProjection: shrinkage must be between 0 and 1.');
  if (!(Number.isInteger(settings.pcaDimensions) && settings.pcaDimensions >= 1))
    throw new TreeAgentError('INVALID_INPUT', 'fitProjection: pcaDimensions must be a positive integer.');
  if (!(Number.isInteger(settings.exactPcaMaxChunks) && settings.exactPcaMaxChunks >= 0))
    throw new TreeAgentError('INVALID_INPUT', 'fitProjection: exactPcaMaxChunks must be an integer ≥ 0.');
  const positive = (value: number) => Number.isInteger(value) && value >= 1;
  const whole = settings.wholePart;
  if (whole && !(positive(whole.dimensions) && positive(whole.pcaOfRest)))
    throw new TreeAgentError(
      'INVALID_INPUT',
      'fitProjection: wholePart.dimensions and wholePart.pcaOfRest must be positive integers.',
    );
  const refine = settings.refine;
  if (
    refine &&
    !(
      refine.scale > 0 &&
      Number.isFinite(refine.scale) &&
      Number.isInteger(refine.epochs) &&
      refine.epochs >= 0 &&
      positive(refine.batch) &&
      refine.learningRate > 0 &&
      Number.isFinite(refine.learningRate)
    )
  )
    throw new TreeAgentError(
      'INVALID_INPUT',
      'fitProjection: refine needs a positive scale and learningRate, a whole number of epochs (0 or more) and a positive integer batch.',
    );
  if (typeof settings.classes === 'object' && !(settings.classes.depth >= 0))
    throw new TreeAgentError('INVALID_INPUT', 'fitProjection: classes.depth must be 0 or more.');
  return settings;
}
