import type { FileMetadata } from './file-metadata.js';
import type { HandoffTransition, OperatorRef } from './handoff.js';
import type { Source } from './output-message.js';

/** One entry of a session's conversation history. History is append-only. */
export interface HistoryEntry {
  /**
   * `user`: a message of the user; `assistant`: a message of the agent, or of an operator (then with
   * `operator`); `system`: a handoff transition (`handoff`), whose `content` describes it.
   */
  role: 'user' | 'assistant' | 'system';
  /** Text of the message; `null` for an assistant message of type `none`. */
  content: string | null;
  /** Interaction number (1 for the first message of the session). */
  turn: number;
  /** ISO timestamp. */
  at: string;
  /** Node that produced an assistant message. */
  nodeId?: number;
  /** Extended form of a user message, when the Memory Agent rewrote it. */
  extended?: string;
  /** Option the user selected, for a user message. */
  selectedOption?: string;
  options?: string[];
  attachments?: FileMetadata[];
  /** The sources an assistant message cited (its `OutputMessage.sources`): a reloaded page shows them again. */
  sources?: Source[];
  /** An assistant message that waits for the user's answer (its `OutputMessage.waitInteraction`). */
  waitInteraction?: boolean;
  /** True for a guardrail warning. */
  isWarning?: boolean;
  /** The operator who wrote an `assistant` message while people had the session. */
  operator?: OperatorRef;
  /** A `system` row: the handoff transition it records. */
  handoff?: HandoffTransition;
}
