import type { FileAgent } from '../files/file-agent.js';
import type { MemoryAgent } from '../memory/memory-agent.js';
import type { NodeType } from '../protocol/constants.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import type { HandoffRequest } from '../protocol/handoff.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import type { ExploreStrategy } from './explore-strategy.js';
import type { SessionState } from './session-state.js';

/** The user's message (docs/concepts.md §9, `TreeAgentInput`). */
export interface TreeAgentInput {
  /** The message as the user wrote it. */
  readonly original: string;
  /** The message rewritten by the Memory Agent with the conversation's implicit references; `original` otherwise. */
  extended: string;
  readonly attachments: readonly FileMetadata[];
}

/** Data travelling with the message (docs/concepts.md §9, `AiMetadata`). */
export interface Metadata {
  readonly sessionId: string;
  /** Sent by the client with the message. */
  readonly clientMetadata: Readonly<Record<string, unknown>>;
  /** Sent to the client with the answer. Not persistent: set it again every interaction. */
  serverMetadata: Record<string, unknown>;
}

/** The node whose callback is running. */
export interface CurrentNode {
  readonly id: number;
  readonly type: NodeType;
  readonly name: string | undefined;
}

/** The argument common to every callback (docs/concepts.md §9). */
export interface Context {
  readonly sessionState: SessionState;
  readonly input: TreeAgentInput;
  readonly exploreStrategy: ExploreStrategy;
  readonly metadata: Metadata;
  readonly memoryAgent: MemoryAgent;
  readonly fileAgent: FileAgent;
  /** Times exploration climbed to an anchor because nothing fit (persistent across interactions). */
  readonly failCounter: number;
  /** Sets the fail counter back to 0, e.g. once the user got a useful answer. */
  resetFailCounter(): void;
  /** Interaction number in the session, starting at 1. */
  readonly turn: number;
  /**
   * The session's language (docs/multilingual-trees.md): one of the tree's `languages`, fixed from the
   * client's locale or detected from the first message; the default language until then; `null`
   * when the tree declares no languages.
   */
  readonly language: string | null;
  /** The node whose callback is running (the root for root callbacks). */
  readonly node: CurrentNode;
  /** Chunks retrieved by query nodes in this interaction, by node id, latest last. */
  readonly retrieved: ReadonlyMap<number, readonly RetrievedChunk[]>;
  /**
   * Hands the session to people when this interaction ends (docs/concepts.md §11): the turn goes on
   * (a node may still answer), then `request.message` is sent, if any, and the user's next messages go
   * to the operators. From any callback, a fallback included; a later call replaces an earlier one.
   * A malformed request is `INVALID_CALLBACK_OUTPUT` naming the node.
   */
  handoff(request: HandoffRequest): void;
}
