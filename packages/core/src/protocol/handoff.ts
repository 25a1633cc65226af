import type { LocalizedText } from './localized-text.js';

/*
 * Human handoff (docs/concepts.md §11): a callback hands the session to people; while they have it
 * the user's messages are kept for them instead of running the tree; an operator hands it back.
 */

/** What a callback asks for when it hands the session to people (`handoff` of an `after` or `beforeRun` output, or `context.handoff(...)`). */
export interface HandoffRequest {
  /** Why, for the operators (e.g. "asked for a person", "third failed attempt"). */
  reason: string;
  /** The queue of people who should answer (a team). Default `default`. */
  queue?: string | null;
  /** What the conversation is about, for the operator who takes it (written by the tree, e.g. by a model). */
  summary?: string | null;
  /**
   * Sent to the user when the session is handed off ("An operator will answer you shortly."); also the
   * notice that clients without a live stream (the OpenAI-compatible endpoint) answer while people have
   * the session. One text, or one per language (`{ it, en }`: the session's language is sent). Absent: no message.
   */
  message?: LocalizedText | null;
  /**
   * An option offered with `message`: while the session waits for people, a user message equal to it
   * (or selecting it) hands the session back to the agent, and that message runs through the tree.
   */
  returnOption?: LocalizedText | null;
}

/** Who did something to a handed-off session: an operator's id and the name users see. */
export interface OperatorRef {
  id: string;
  name: string;
}

/** The handoff of a session while people have it (`SessionRecord.handoff`, `AgentOutput.handoff`). */
export interface HandoffState {
  reason: string;
  queue: string;
  summary: string | null;
  message: string | null;
  returnOption: string | null;
  /** ISO timestamp of the handoff. */
  since: string;
  /** Interaction in which the session was handed off. */
  turn: number;
  /** The node whose callback handed off (the root for `beforeRun`). */
  nodeId: number;
  /** The operator who claimed the session, or `null` while it waits in the queue. */
  operator: OperatorRef | null;
  /** ISO timestamp of the claim. */
  claimedAt: string | null;
}

/** How a handoff ended: an operator handed it back, an operator closed it, or the user picked `returnOption`. */
export type HandoffOutcome = 'handed-back' | 'closed' | 'user-returned';

/** Where the agent continues after a hand-back to a node (the `nodeTarget` rules of `after`). */
export interface HandBackTarget {
  nodeTarget: number;
  /** `explore` from the node (default) or run it from its `before` step. */
  step?: 'explore' | 'before';
  /** With an agent as target: continue that agent from its own last executed node. */
  resume?: boolean;
}

/** A transition of a handoff, as a history row (`HistoryEntry.handoff`) and a trace event. */
export type HandoffTransition =
  | { type: 'start'; queue: string; reason: string; nodeId: number }
  | { type: 'claim'; operator: OperatorRef }
  | { type: 'release'; operator: OperatorRef }
  | {
      type: 'end';
      outcome: HandoffOutcome;
      operator: OperatorRef | null;
      /** The node the agent continues at; `null`: the primary agent, as a first interaction. */
      nodeTarget: number | null;
    };
