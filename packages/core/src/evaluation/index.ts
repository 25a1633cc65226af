export {
  type EvaluateRoutingOptions,
  evaluateRouting,
  MIN_OUT_OF_SCOPE_EXAMPLES,
  type NodeScore,
  type OperatingPoint,
  type RoutingEvaluation,
  type RoutingOutcome,
} from './evaluate-routing.js';
export { type LabelledUtterance, NONE, type RouteFunction, type UtteranceResult } from './routing-types.js';
export {
  type CurrentThreshold,
  MIN_SUGGESTION_EXAMPLES,
  suggestThresholds,
  type ThresholdSuggestion,
  type ThresholdSuggestions,
} from './suggest-thresholds.js';
