export { countEnglish, ENGLISH_TREE_SHARE, isEnglishTree, type LanguageCount } from '@treeagent/core/adapter';
export { DEFAULT_BASE_WEIGHT } from './base-weight.js';
export {
  CASCADE_GAP,
  CASCADE_MARGIN,
  type ChosenBase,
  chooseFitBase,
  type FitBase,
  STUDENT_BASE_CALIBRATION_KEEP,
  STUDENT_BASE_WEIGHT,
  USE_BASE_CALIBRATION_KEEP,
  USE_BASE_WEIGHT,
  USE_HASHED_PCA_DIMENSIONS,
  USE_PACKAGE,
  USE_PROXY_REFINEMENT,
  USE_REFINED_CALIBRATION_KEEP,
  USE_REFINED_CALIBRATION_SAMPLES,
  USE_WHOLE_PART_CALIBRATION_KEEP,
  type UseImporter,
} from './fit-base.js';
export { chunkClasses, type FitClass, fitKey } from './fit-classes.js';
export { fitProjection } from './fit-projection.js';
export {
  DEFAULT_EXACT_PCA_MAX_CHUNKS,
  type FitClasses,
  type FitOptions,
  type FitProgress,
  type FitSettings,
  fitSettings,
  type ProxyRefinement,
  type WholePart,
} from './fit-settings.js';
export {
  FittedEmbedder,
  type FittedEmbedderOptions,
  type ForTreeOptions,
  fitFileName,
  type ProjectionJSON,
  projectionFromJSON,
  projectionToJSON,
} from './fitted-embedder.js';
export { INTERIM_FIT_MIN_UNEMBEDDED } from './interim-fit.js';
export { type LintedFit, lintFit } from './lint-fit.js';
export {
  type MultilingualSource,
  TRANSFORMERS_PACKAGE,
  type TransformersImporter,
} from './multilingual-base.js';
export { type ProgressLineOptions, progressLine } from './progress-line.js';
export type { PcaDescription, Projection } from './projection.js';
export { MODEL_MANIFEST, type ModelManifest, type PulledModel, pulledModels } from './pulled-models.js';
export { DEFAULT_FITTED_CALIBRATION_KEEP, type SpaceFitterOptions, spaceFitter } from './space-fitter.js';
