export {
  type EvaluateRoutingOptions,
  evaluateRouting,
  type NodeScore,
  type OperatingPoint,
  type RoutingEvaluation,
} from './evaluate-routing.js';
export { type LabelledUtterance, NONE, type UtteranceResult } from './routing-types.js';
export { suggestThresholds, type ThresholdSuggestion } from './suggest-thresholds.js';
