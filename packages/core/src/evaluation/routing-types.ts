import type { RouteResult, ThresholdOverride } from '../engine/agent/route.js';
import type { ThresholdSource } from '../protocol/events.js';

/** A test utterance and the name of the node it should reach, or `'none'` when nothing should fit. */
export type LabelledUtterance = readonly [text: string, expected: string];

/** The label of an out-of-scope utterance. */
export const NONE = 'none';

export type { ThresholdOverride };

/**
 * Routes one text as `send` would on a fresh session (`TreeAgent.route`); with `thresholds`, as if
 * the routing nodes had those thresholds.
 */
export type RouteFunction = (
  text: string,
  options?: { thresholds?: ThresholdOverride },
) => Promise<RouteResult>;

/** How one utterance was routed. */
export interface UtteranceResult {
  text: string;
  expected: string;
  /** Name (or `#id`) of the node the turn answers from; `none` when it ends in the agent's fallback. */
  predicted: string;
  correct: boolean;
  /** Lowest similarity among the hops that descended on the final path: the threshold above which the route holds. */
  pathSimilarity: number;
  /** Similarity of the best chunk at each routing node on the way, by node id. */
  hops: {
    nodeId: number;
    similarity: number | null;
    descended: boolean;
    /** The node's threshold in this routing pass, and where it comes from. */
    threshold: number | null;
    thresholdSource?: ThresholdSource;
  }[];
}
