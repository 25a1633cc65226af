import type { TurnStatus } from '@treeagent/core';

/** What one message (or several) of a turn must look like. A string means "contains". */
export type TextExpectation = string | { contains: string } | { matches: string } | { equals: string };

/** Expectations on a turn; every field is optional and only the fields given are checked. */
export interface TurnExpectation {
  /** Name or id of the node that answered (the last executed node). */
  node?: string | number;
  /** Names or ids of the nodes executed in the turn, in order. */
  path?: (string | number)[];
  /** The last message's text, or each message's text in order when a list. */
  message?: TextExpectation | TextExpectation[];
  /** Number of messages in the answer. */
  messages?: number;
  /** Options offered by the last message, exactly. */
  options?: string[];
  /** Values of the session state after the turn (a subset: other keys may exist; mappings are checked by the keys they give, recursively; `null` means absent). */
  state?: Record<string, unknown>;
  /** `answered` (default when given) or `no-match`. */
  status?: TurnStatus;
  /** The turn must fail with this error code (by default any error fails the test). */
  error?: string;
  /** The last message is (or is not) a guardrail warning. */
  warning?: boolean;
  /** Titles of the last message's sources, in order. */
  sources?: string[];
}

/** A file the user attaches to a message. */
export interface AttachmentFixture {
  name: string;
  mimeType?: string;
  /** The file's text content. */
  content: string;
}

/** One user turn: a message, an option picked among the last message's, attachments. */
export interface ConversationTurn {
  say?: string;
  option?: string;
  attach?: AttachmentFixture[];
  clientMetadata?: Record<string, unknown>;
  /**
   * Restart the agent before this turn: a new `TreeAgent` from the agent options (a factory is called
   * again, so a SQLite file store is re-opened; the previous store is closed). The conversation goes
   * on with what the session store kept.
   */
  restart?: boolean;
  expect?: TurnExpectation;
}

export interface Conversation {
  name: string;
  /** Session id; default a fresh one per conversation. */
  session?: string;
  turns: ConversationTurn[];
}

/** Deterministic stand-ins for the model and the embedder (mocks, for tests). */
/** One answer of the fixture model: a text, or tool calls (the engine runs them and asks again). */
export type FixtureAnswer = string | { toolCalls: { toolName: string; input: Record<string, unknown> }[] };

export interface Fixtures {
  /**
   * A scripted language model (a mock, for tests) answering in order, the last repeating: a text,
   * or `{ toolCalls: [{ toolName, input }] }` for an answer that calls the node's tools.
   */
  model?: { answers: FixtureAnswer[] };
  /** An embedder with exact vectors per text. */
  embedder?: { vectors: Record<string, number[]>; fallback?: number[] };
}

/** A conversation test file: one or more conversations and optional fixtures. */
export interface ConversationFile {
  path: string;
  fixtures?: Fixtures;
  conversations: Conversation[];
}
