/**
 * `@treeagent/core/evaluation`: the tools that measure and tune a tree's routing (docs/routing.md) —
 * routing evaluation on labelled utterances, threshold suggestions and calibration, tree lint, and
 * extra chunks added from real messages. The CLI's `eval`, `lint` and `fit` and the editor use them.
 */

export {
  type EvaluateRoutingOptions,
  evaluateRouting,
  MIN_OUT_OF_SCOPE_EXAMPLES,
  type NodeScore,
  type OperatingPoint,
  type RoutingEvaluation,
  type RoutingOutcome,
} from './evaluation/evaluate-routing.js';
export {
  type LabelledUtterance,
  NONE,
  type RouteFunction,
  type UtteranceResult,
} from './evaluation/routing-types.js';
export {
  type CurrentThreshold,
  MIN_SUGGESTION_EXAMPLES,
  suggestThresholds,
  type ThresholdSuggestion,
  type ThresholdSuggestions,
} from './evaluation/suggest-thresholds.js';
export {
  type CalibrationOptions,
  calibrateThresholds,
  calibrationReads,
  DEFAULT_CALIBRATION_KEEP,
  type ThresholdCalibration,
  withCalibratedThresholds,
  withThresholds,
} from './explore/calibrate-thresholds.js';
export { isAboveThreshold, SIMILARITY_TOLERANCE } from './explore/similarity-threshold.js';
export type { LintThreshold } from './lint/lint-thresholds.js';
export {
  type LintableEmbedder,
  type LintOptions,
  type LintReport,
  lintReport,
  lintTree,
} from './lint/lint-tree.js';
export type { LintWarning } from './lint/lint-warning.js';
export { type ExtraChunks, withExtraChunks } from './tree/extra-chunks.js';
export { type ModelNeed, modelNeeds } from './tree/model-needs.js';
