/** A test utterance and the name of the node it should reach, or `'none'` when nothing should fit. */
export type LabelledUtterance = readonly [text: string, expected: string];

/** The label of an out-of-scope utterance. */
export const NONE = 'none';

/** How one utterance was routed. */
export interface UtteranceResult {
  text: string;
  expected: string;
  /** Name (or `#id`) of the node reached; `none` when exploration ended on the agent. */
  predicted: string;
  correct: boolean;
  /** Lowest similarity among the hops that descended: the threshold above which the route holds. */
  pathSimilarity: number;
  /** Similarity of the best chunk at each routing node on the way, by node id. */
  hops: { nodeId: number; similarity: number | null; descended: boolean }[];
}
