export { DEFAULT_BASE_WEIGHT } from './base-weight.js';
export {
  chunkClasses,
  type FitClass,
  type FitClasses,
  type FitOptions,
  type FitProgress,
  type FitSettings,
  fitKey,
  fitProjection,
  fitSettings,
  type Projection,
} from './fit-projection.js';
export {
  FittedEmbedder,
  type FittedEmbedderOptions,
  type ForTreeOptions,
  fitFileName,
  type ProjectionJSON,
  projectionFromJSON,
  projectionToJSON,
} from './fitted-embedder.js';
export { type LintedFit, lintFit } from './lint-fit.js';
export { type ProgressLineOptions, progressLine } from './progress-line.js';
