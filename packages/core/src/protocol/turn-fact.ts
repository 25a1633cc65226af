/**
 * How a turn ended, for analytics (docs/analytics.md):
 * - `answered`: a node answered, no fallback ran;
 * - `no-match`: nothing fitted and the agent has no `fallback`;
 * - `fallback`: the agent's `fallback` answered (nothing fitted, or an error it handled: then `errorCode` is set);
 * - `error`: the turn failed (nothing of it was committed but this fact);
 * - `handed-off`: the conversation went to a human operator during the turn.
 */
export type TurnFactStatus = 'answered' | 'no-match' | 'fallback' | 'error' | 'handed-off';

/** One explore decision of a turn, compact: where it was, what won and by how much. */
export interface TurnDecisionFact {
  /** Node that explored. */
  nodeId: number;
  /** Child the best chunk belongs to (`null` when no chunk was allowed). */
  childId: number | null;
  /** Similarity of the best chunk, or `null`. */
  similarity: number | null;
  /** Child holding the best chunk of another child (the runner-up), or `null`. */
  runnerUpId: number | null;
  /** `similarity` minus the runner-up's similarity; `null` without a runner-up. */
  margin: number | null;
  threshold: number | null;
  /** True when exploration descended. */
  descended: boolean;
}

/**
 * The compact row every turn leaves beside the session data (docs/analytics.md), written in the
 * turn's own commit. Texts in it (`message`) are already redacted.
 */
export interface TurnFact {
  sessionId: string;
  /** Interaction number in the session. */
  turn: number;
  /** ISO time the turn started. */
  at: string;
  /** The tree's content hash (`Tree.contentHash`): which version answered. */
  treeVersion: string;
  status: TurnFactStatus;
  /** Code of the error a fallback handled, or that failed the turn. */
  errorCode: string | null;
  /** Last node executed (the one that answered), or `null`. */
  nodeId: number | null;
  /** Agent the turn ended in, or `null`. */
  agentId: number | null;
  /** Best similarity of the turn's first decision (how well the message fitted anything). */
  bestSimilarity: number | null;
  /** Smallest margin to the runner-up over the turn's decisions, and where it was. */
  minMargin: number | null;
  lowMarginNodeId: number | null;
  lowMarginChildId: number | null;
  lowMarginRunnerUpId: number | null;
  failCounter: number;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The user's message, redacted. */
  message: string;
  decisions: TurnDecisionFact[];
}
