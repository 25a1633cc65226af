import type { MessageType } from './constants.js';
import type { FileMetadata } from './file-metadata.js';

/** A source attached to a message (docs/concepts.md §7, `Source`). */
export interface Source {
  title?: string;
  /** Where the source can be read: a web page (with `#anchor` for a section) or a document's path. */
  url?: string;
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
