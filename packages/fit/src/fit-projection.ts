import type { Tree } from '@treeagent/core';
import type { Embedder } from '@treeagent/core/adapter';
import { baseVectors, EMBEDDING_BATCH } from './base-vectors.js';
import { fitKey, type TrainingSet, trainingSet } from './fit-classes.js';
import { type FitOptions, type FitProgress, type FitSettings, fitSettings } from './fit-settings.js';
import { defaultThreads, toCsr } from './parallel.js';
import { type ProjectedFit, projectVectors, type VectorsToProject } from './project-vectors.js';
import { type Projection, projectionHash } from './projection.js';

/**
 * Fits a linear projection of the base embedder's space on the tree's own chunks, each labelled with
 * the node that holds it (or its ancestor at a given depth): randomised PCA to `pcaDimensions`, then
 * LDA with a shrunk within-class scatter. Routing by cosine in the fitted space separates the
 * classes better than the base space. The steps, one module each: `trainingSet` (fit-classes.ts),
 * `baseVectors`, then `projectVectors` (`randomisedPca`, `classScatter`, `shrunkLda`).
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
  return fitProjectionWith(tree, base, options, (input, onStep) =>
    projectVectors(input, onStep, options.signal),
  );
}

/**
 * `fitProjection` with the math (`projectVectors`) run by `project`: on this thread, or in a worker
 * (`fitInWorker`). The chunks are embedded here, through the cache, since embedders do not travel.
 * With `refine`, `onUnrefined` receives the LDA's own projection (its settings without `refine`, so
 * its key is that of a fit without it) before the map is refined.
 */
export async function fitProjectionWith(
  tree: Tree,
  base: Embedder,
  options: FitOptions,
  project: (
    input: VectorsToProject,
    onStep: (phase: FitProgress['phase']) => void,
    onUnrefined: (fit: ProjectedFit) => void,
  ) => Promise<ProjectedFit>,
  onUnrefined?: (projection: Projection) => void,
): Promise<Projection> {
  const started = performance.now();
  const settings = fitSettings(options);
  const training = trainingSet(tree, settings);
  const total =
    Math.ceil(training.texts.length / EMBEDDING_BATCH) +
    settings.powerIterations +
    4 +
    (settings.refine?.epochs ?? 0);
  let done = 0;
  const step = (phase: FitProgress['phase']) => options.onProgress?.({ phase, done: ++done, total });

  // 1. Base vectors (unit length), kept sparse, and their mean.
  const vectors = await baseVectors(training.texts, base, options, () => step('embedding'));
  const csr = toCsr(vectors.rows);
  vectors.rows.length = 0;
  // 2–4. PCA basis, class scatter, shrunk LDA.
  const fitted = await project(
    {
      csr,
      mean: vectors.mean,
      d: vectors.dimensions,
      labels: training.labels,
      classes: training.classes.length,
      settings,
      threads: options.threads ?? defaultThreads(),
    },
    step,
    (unrefined) =>
      onUnrefined?.(
        toProjection(tree, base, withoutRefine(settings), training, unrefined, csr.rows, started),
      ),
  );
  return toProjection(tree, base, settings, training, fitted, csr.rows, started);
}

/** The settings of the same fit without its map refined. */
function withoutRefine(settings: FitSettings): FitSettings {
  const unrefined = { ...settings };
  delete unrefined.refine;
  return unrefined;
}

function toProjection(
  tree: Tree,
  base: Embedder,
  settings: FitSettings,
  training: TrainingSet,
  fitted: ProjectedFit,
  chunks: number,
  started: number,
): Projection {
  return {
    baseId: base.id,
    fitKey: fitKey(tree, settings.classes),
    hash: projectionHash(base.id, fitted.matrix, fitted.offset),
    inputDimensions: fitted.matrix.length / fitted.outputDimensions,
    outputDimensions: fitted.outputDimensions,
    matrix: fitted.matrix,
    offset: fitted.offset,
    settings,
    classes: training.classes.map(training.describe),
    excluded: training.excluded.map(training.describe),
    chunks,
    pca: fitted.pca,
    milliseconds: performance.now() - started,
  };
}
