export {
  chunkClasses,
  type FitClass,
  type FitClasses,
  type FitOptions,
  type FitProgress,
  type FitSettings,
  fitProjection,
  fitSettings,
  type Projection,
} from './fit-projection.js';
export {
  FittedEmbedder,
  type ForTreeOptions,
  fitFileName,
  type ProjectionJSON,
  projectionFromJSON,
  projectionToJSON,
} from './fitted-embedder.js';
