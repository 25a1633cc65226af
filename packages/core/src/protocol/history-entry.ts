import type { FileMetadata } from './file-metadata.js';

/** One entry of a session's conversation history. History is append-only. */
export interface HistoryEntry {
  role: 'user' | 'assistant';
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
  /** True for a guardrail warning. */
  isWarning?: boolean;
}
