import type { ChunkId } from './chunk-id.js';
import type { Step } from './constants.js';
import type { ErrorSummary } from './error-summary.js';
import type { HandoffState, HandoffTransition } from './handoff.js';
import type { OutputMessage } from './output-message.js';

/*
 * The events of a turn and the turn's output are one recursive type (`turn-end` carries the output,
 * the output carries the trace of events), so they live in this one file.
 */

/**
 * Where a routing node's `similarityThreshold` comes from: set on the node, the root's
 * `defaultSimilarityThreshold`, the library default, or calibrated from the tree's chunks at load.
 */
export type ThresholdSource = 'node' | 'root-default' | 'default' | 'calibrated';

/** The chunk exploration found best among a node's subtree. */
export interface ExploreCandidate {
  chunkId: ChunkId;
  text: string;
  /** Node that holds the chunk. */
  nodeId: number;
  /** Child of the exploring node whose subtree holds the chunk. */
  childId: number;
  similarity: number;
  /**
   * The best allowed chunk held by another child (what lost): its child and similarity, `null` when
   * no other child has one. Every chunk search computes it (in memory, the sign-bit scan, a vector
   * store); absent only in traces of searches that do not (a custom `ChunkSearch`).
   */
  runnerUp?: { childId: number; similarity: number } | null;
}

/**
 * Why exploration did what it did at one node:
 * - `blocking`: a blocking node reached after moving; exploration stops on it.
 * - `leaf`: the node has no children; exploration stops on it.
 * - `leaf-climb`: a leaf that was just executed; climb to the nearest anchor (fail counter +1).
 * - `descend`: the best chunk is above the threshold; move to the child holding it.
 * - `below-threshold`: no chunk above the threshold; exploration stops on the node.
 * - `climb`: no chunk above the threshold on the node just executed; blacklist it and climb (fail counter +1).
 */
export type ExploreAction = 'blocking' | 'leaf' | 'leaf-climb' | 'descend' | 'below-threshold' | 'climb';

/** Everything observable in a turn, as one discriminated union. Feeds streaming, tracing, tests and the debug view. */
export type AgentEvent =
  | {
      type: 'turn-start';
      sessionId: string;
      turn: number;
      message: string;
      at: string;
      /** Present when exploration runs in the space fitted to the tree at load: the fitted embedder's id. */
      fittedSpace?: string;
    }
  | { type: 'session-reset'; reason: string; lostNodeId: number }
  | { type: 'message-extended'; original: string; extended: string }
  | { type: 'step-start'; nodeId: number; step: Step }
  | {
      type: 'step-end';
      nodeId: number;
      step: Step;
      durationMs: number;
      /** Code of the error that ended the step early; absent when the step completed. */
      error?: string;
    }
  | { type: 'callback-start'; nodeId: number; callback: string }
  | { type: 'callback-end'; nodeId: number; callback: string; durationMs: number; output?: unknown }
  | { type: 'self-init'; nodeId: number; scope: 'root' | 'component'; componentId: number }
  | {
      type: 'explore-decision';
      nodeId: number;
      action: ExploreAction;
      moved: boolean;
      threshold: number | null;
      /** Where the threshold comes from (`calibrated`: computed from the tree's chunks at load). */
      thresholdSource?: ThresholdSource;
      best: ExploreCandidate | null;
      /** Node exploration goes to next (the child, the anchor), or the node it stops on. */
      nextNodeId: number;
    }
  | { type: 'explore-end'; nodeId: number; direction: string }
  | {
      type: 'fail-counter';
      value: number;
      nodeId: number;
      reason: 'leaf' | 'below-threshold' | 'failure-outcome';
    }
  | { type: 'blacklist-add'; kind: 'node' | 'chunk'; ids: (number | ChunkId)[]; reason: string }
  | {
      type: 'after-output';
      nodeId: number;
      nodeTarget: number | null;
      step: Step;
      outcome: string;
      resume: boolean;
    }
  | { type: 'message-start'; messageId: string; nodeId: number; messageType: OutputMessage['type'] }
  | { type: 'text-delta'; messageId: string; nodeId: number; delta: string }
  | { type: 'message'; message: OutputMessage }
  | {
      type: 'model-call';
      nodeId: number;
      modelId: string;
      purpose: string;
      durationMs: number;
      attempt: number;
      /** Tokens the provider reported for the call, when it did. */
      inputTokens?: number;
      outputTokens?: number;
    }
  | { type: 'model-param-dropped'; nodeId: number; modelId: string; param: string }
  | {
      /** The model of `nodeId` called a tool; it runs now (docs/models.md, *Tools*). */
      type: 'tool-call';
      nodeId: number;
      toolCallId: string;
      toolName: string;
      /** The node's tool step (1 for the model's first answer). */
      step: number;
      /** The arguments the model gave. Outside debug mode the server sends this event without them. */
      input: unknown;
    }
  | {
      /** What a tool call returned to the model, or why it did not run. */
      type: 'tool-result';
      nodeId: number;
      toolCallId: string;
      toolName: string;
      step: number;
      durationMs: number;
      /**
       * What went back to the model: the tool's result, or the message of `error`. Absent when the
       * tool failed the node. Outside debug mode the server sends this event without it.
       */
      output?: unknown;
      /**
       * Why the call gave no result: `UNKNOWN_TOOL` and `INVALID_TOOL_INPUT` go back to the model,
       * which may try again; `CALLBACK_ERROR` (the tool threw) and `TIMEOUT` fail the node, and the
       * agent's fallback takes over.
       */
      error?: 'UNKNOWN_TOOL' | 'INVALID_TOOL_INPUT' | 'CALLBACK_ERROR' | 'TIMEOUT' | 'ABORTED' | string;
    }
  | {
      type: 'query-result';
      nodeId: number;
      query: string | null;
      chunkIds: ChunkId[];
      nextOffset: string | null;
    }
  | {
      type: 'fallback';
      agentId: number;
      /** The error the fallback handles: code, message, node, callback, first frame in the author's code. */
      error: ErrorSummary;
      nodeTarget: number;
      /** The fallback resumed a question the conversation was waiting on (`BaseFallbackOutput.resumes`). */
      resumes?: true;
    }
  | { type: 'no-match'; agentId: number }
  /**
   * The session went to people (`start`), a message was kept for them instead of running the tree
   * (`held`), or the handoff ended (`end`, e.g. the user picked the return option).
   */
  | { type: 'handoff'; transition: HandoffTransition | { type: 'held'; queue: string } }
  | { type: 'error'; error: ErrorSummary }
  | { type: 'turn-end'; output: AgentOutput; durationMs: number };

export type AgentEventType = AgentEvent['type'];

/**
 * How a turn ended:
 * - `answered`: a node answered, no fallback ran;
 * - `no-match`: nothing in the agent fits the message and the agent has no `fallback`;
 * - `fallback-no-match`: nothing fitted and the agent's `fallback` answered;
 * - `fallback-error`: an error (a callback that threw, a loop, …) was handled by the agent's
 *   `fallback`, which answered; the trace's `fallback` events say which error;
 * - `handed-off`: the session is with people: this turn handed it off, or the message was kept for
 *   the operators and the tree did not run (`output.handoff` says to whom).
 */
export type TurnStatus = 'answered' | 'no-match' | 'fallback-no-match' | 'fallback-error' | 'handed-off';

/** What `TreeAgent.send` returns for one interaction. */
export interface AgentOutput {
  sessionId: string;
  /** Interaction number within the session, starting at 1. */
  turn: number;
  status: TurnStatus;
  /** The session's fail counter after the turn (`context.failCounter`). */
  failCounter: number;
  messages: OutputMessage[];
  /** `context.metadata.serverMetadata` at the end of the turn (not persisted). */
  serverMetadata: Record<string, unknown>;
  /** Last executed node after the turn; the next message resumes at its `after`. */
  nodeId: number | null;
  /** Every event of the turn in order, except text deltas and `turn-end`: explains why the agent went where it went. */
  trace: AgentEvent[];
  /** While people have the session after the turn (`status: 'handed-off'`): the handoff. */
  handoff?: HandoffState;
}

/**
 * The events a client of the server sees outside debug mode: what the user sees (messages, their
 * streamed text, the tools running — by name, without their arguments and results — no match,
 * errors), not why the agent went there. The server filters its streams with
 * it; the web app tells from it whether the server runs in debug mode.
 */
export const USER_FACING_EVENT_TYPES: ReadonlySet<AgentEventType> = new Set<AgentEventType>([
  'turn-start',
  'message-start',
  'text-delta',
  'message',
  'tool-call',
  'tool-result',
  'no-match',
  'handoff',
  'error',
  'turn-end',
]);

/** Whether clients see `type` outside debug mode (see `USER_FACING_EVENT_TYPES`). */
export function isUserFacingEvent(type: string): boolean {
  return USER_FACING_EVENT_TYPES.has(type as AgentEventType);
}
