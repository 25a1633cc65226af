import type { FileMetadata } from '../files/file-metadata.js';
import type { MessageType } from '../tree/constants.js';
import type { AgentEvent } from './events.js';

/** A source attached to a message (SPEC §7, `Source`). */
export interface Source {
  title?: string;
  content: string;
  /** Chunk the source came from, when it was retrieved by a query node. */
  chunkId?: string | number;
  extra?: Record<string, unknown>;
}

/** A message the agent sends to the user in one turn. */
export interface OutputMessage {
  /** Unique within the session (`<turn>-<index>`). */
  id: string;
  /** Node that sent it. */
  nodeId: number;
  type: MessageType;
  /** Text of the message; `null` for type `none`. */
  content: string | null;
  options: string[];
  attachments: FileMetadata[];
  /** Files shown only where the text contains `{{name.ext}}`. */
  dynamicAttachments: FileMetadata[];
  sources: Source[];
  /** The client should expect the user to answer this message. */
  waitInteraction: boolean;
  /** True when a guardrail node sent it. */
  isWarning: boolean;
}

/** How a turn ended. `no-match`: nothing in the agent fits the message and the agent has no `fallback`. */
export type TurnStatus = 'answered' | 'no-match';

/** What `TreeAgent.send` returns for one interaction. */
export interface AgentOutput {
  sessionId: string;
  /** Interaction number within the session, starting at 1. */
  turn: number;
  status: TurnStatus;
  messages: OutputMessage[];
  /** `context.metadata.serverMetadata` at the end of the turn (not persisted). */
  serverMetadata: Record<string, unknown>;
  /** Last executed node after the turn; the next message resumes at its `after`. */
  nodeId: number | null;
  /** Every event of the turn in order, except text deltas and `turn-end`: explains why the agent went where it went. */
  trace: AgentEvent[];
}
